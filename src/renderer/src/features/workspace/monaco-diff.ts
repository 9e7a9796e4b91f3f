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

function themeNow(): string {
  return window.matchMedia(DARK_QUERY).matches ? 'vs-dark' : 'vs';
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
  });
  let models: { original: monaco.editor.ITextModel; modified: monaco.editor.ITextModel } | null = null;
  let shown: DiffInput | null = null;

  function show(next: DiffInput): void {
    const sameContent =
      shown !== null && shown.path === next.path && shown.original === next.original && shown.modified === next.modified && shown.language === next.language;
    shown = next;
    // Toggling side-by-side keeps the models, so the reader keeps their place.
    editor.updateOptions({ renderSideBySide: !next.inline });
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
      models?.original.dispose();
      models?.modified.dispose();
      models = null;
    },
  };
}
