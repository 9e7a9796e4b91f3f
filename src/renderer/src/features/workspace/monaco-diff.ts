import * as monaco from 'monaco-editor';
import type { DiffEditorHandle, DiffInput } from './diff-editor-port';
import { installMonacoEnvironment } from './monaco-environment';

const DARK_QUERY = '(prefers-color-scheme: dark)';
/** Narrower than this, the side-by-side view switches to inline by itself. */
export const SIDE_BY_SIDE_MIN_PX = 560;

installMonacoEnvironment();
// A handed-off file is shown out of its project: imports cannot resolve, so semantic errors would
// be noise on every line. Syntax errors stay: they are real.
for (const defaults of [monaco.typescript.typescriptDefaults, monaco.typescript.javascriptDefaults]) {
  defaults.setDiagnosticsOptions({ noSemanticValidation: true, noSyntaxValidation: false });
}

// vs-dark's keyword blue on its inserted-text green measured 3.82:1 (axe, e2e/web/a11y.spec.ts):
// fainter diff backgrounds keep the tokens over 4.5:1.
monaco.editor.defineTheme('baton-dark', {
  base: 'vs-dark',
  inherit: true,
  rules: [{ token: 'comment', foreground: '7ca668' }],
  colors: {
    'diffEditor.insertedTextBackground': '#9ccc2c14',
    'diffEditor.insertedLineBackground': '#9bb9550d',
    'diffEditor.removedTextBackground': '#ff000018',
    'diffEditor.removedLineBackground': '#ff00000d',
  },
});

// And vs's string red on its removed-text pink measured 4.11:1: a paler pink.
monaco.editor.defineTheme('baton-light', {
  base: 'vs',
  inherit: true,
  rules: [],
  colors: {
    'diffEditor.insertedTextBackground': '#9ccc2c26',
    'diffEditor.insertedLineBackground': '#9bb95514',
    'diffEditor.removedTextBackground': '#ff000020',
    'diffEditor.removedLineBackground': '#ff000010',
  },
});

function themeNow(): string {
  return window.matchMedia(DARK_QUERY).matches ? 'baton-dark' : 'baton-light';
}

/** Names of the two read-only editors for screen readers (and for the hidden inputs Monaco keeps). */
function ariaLabels(input: DiffInput): { original: string; modified: string } {
  return { original: `${input.path}, before (read-only)`, modified: `${input.path}, handed off (read-only)` };
}

/** A read-only Monaco diff editor in `element`; its models are replaced per file and disposed with it. */
export function mountDiffEditor(element: HTMLElement, input: DiffInput): DiffEditorHandle {
  monaco.editor.setTheme(themeNow());
  const media = window.matchMedia(DARK_QUERY);
  const onScheme = (): void => monaco.editor.setTheme(themeNow());
  media.addEventListener('change', onScheme);

  const editor = monaco.editor.createDiffEditor(element, {
    readOnly: true,
    originalEditable: false,
    domReadOnly: true,
    automaticLayout: true,
    renderSideBySide: !input.inline,
    // Side by side down to a narrow pane; below that two columns are unreadable, so Monaco goes inline.
    useInlineViewWhenSpaceIsLimited: true,
    renderSideBySideInlineBreakpoint: SIDE_BY_SIDE_MIN_PX,
    renderOverviewRuler: true,
    scrollBeyondLastLine: false,
    minimap: { enabled: false },
    fontSize: 13,
    hideUnchangedRegions: { enabled: true, contextLineCount: 3, minimumLineCount: 6, revealLineCount: 20 },
    renderMarginRevertIcon: false,
    // Monaco's hidden text inputs take these as their labels (axe: every input has a name).
    originalAriaLabel: ariaLabels(input).original,
    modifiedAriaLabel: ariaLabels(input).modified,
  });
  let models: { original: monaco.editor.ITextModel; modified: monaco.editor.ITextModel } | null = null;
  let shown: DiffInput | null = null;
  // A file on one side only is shown in a plain read-only editor, every line marked added or deleted.
  const singleHost = document.createElement('div');
  singleHost.className = 'single-editor-host';
  // Over the diff editor's place, the host's full size (the diff editor is hidden meanwhile).
  element.style.position = 'relative';
  singleHost.style.position = 'absolute';
  singleHost.style.inset = '0';
  element.appendChild(singleHost);
  let single: { editor: monaco.editor.IStandaloneCodeEditor; model: monaco.editor.ITextModel | null; marks: monaco.editor.IEditorDecorationsCollection } | null = null;

  function showOneSide(next: DiffInput & { oneSide: 'added' | 'deleted' }): void {
    if (single === null) {
      const editor = monaco.editor.create(singleHost, { readOnly: true, domReadOnly: true, automaticLayout: true, scrollBeyondLastLine: false, minimap: { enabled: false }, fontSize: 13 });
      single = { editor, model: null, marks: editor.createDecorationsCollection() };
    }
    const text = next.oneSide === 'added' ? next.modified : next.original;
    const previous = single.model;
    single.model = monaco.editor.createModel(text, next.language);
    single.editor.setModel(single.model);
    single.editor.updateOptions({ ariaLabel: `${next.path}, ${next.oneSide === 'added' ? 'new file' : 'deleted file'} (read-only)` });
    previous?.dispose();
    const lines = single.model.getLineCount();
    single.marks.set([{ range: new monaco.Range(1, 1, lines, 1), options: { isWholeLine: true, className: `line-${next.oneSide}`, linesDecorationsClassName: `gutter-${next.oneSide}` } }]);
  }

  function show(next: DiffInput): void {
    // The diff editor's own DOM (the children of `element` it made) is hidden while one side shows.
    for (const child of element.children) if (child !== singleHost) (child as HTMLElement).style.display = next.oneSide === undefined ? '' : 'none';
    singleHost.style.display = next.oneSide === undefined ? 'none' : '';
    if (next.oneSide !== undefined) {
      shown = next;
      return showOneSide({ ...next, oneSide: next.oneSide });
    }
    const sameContent =
      shown !== null && shown.oneSide === undefined && shown.path === next.path && shown.original === next.original && shown.modified === next.modified && shown.language === next.language;
    shown = next;
    // Toggling side-by-side keeps the models, so the reader keeps their place.
    editor.updateOptions({ renderSideBySide: !next.inline });
    editor.getOriginalEditor().updateOptions({ ariaLabel: ariaLabels(next).original });
    editor.getModifiedEditor().updateOptions({ ariaLabel: ariaLabels(next).modified });
    if (sameContent) return;
    const previous = models;
    models = {
      original: monaco.editor.createModel(next.original, next.language),
      modified: monaco.editor.createModel(next.modified, next.language),
    };
    editor.setModel(models);
    previous?.original.dispose();
    previous?.modified.dispose();
  }

  show(input);
  return {
    update: show,
    dispose() {
      media.removeEventListener('change', onScheme);
      editor.dispose();
      single?.editor.dispose();
      single?.model?.dispose();
      singleHost.remove();
      models?.original.dispose();
      models?.modified.dispose();
      models = null;
    },
  };
}
