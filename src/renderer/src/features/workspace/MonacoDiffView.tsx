import { useContext, useEffect, useRef, useState } from 'react';
import { DiffEditorContext, type DiffEditorHandle, type DiffInput } from './diff-editor-port';

/** Hosts one diff editor for the panel's lifetime and feeds it each file; says so while Monaco loads. */
export function MonacoDiffView(input: DiffInput) {
  const mount = useContext(DiffEditorContext);
  const element = useRef<HTMLDivElement>(null);
  const handle = useRef<DiffEditorHandle | null>(null);
  const latest = useRef(input);
  latest.current = input;
  const [state, setState] = useState<'loading' | 'ready' | { failed: string }>('loading');

  useEffect(() => {
    const host = element.current;
    if (host === null) return;
    let alive = true;
    mount(host, latest.current).then(
      (editor) => {
        if (!alive) return editor.dispose();
        handle.current = editor;
        // The file may have changed while Monaco was loading.
        editor.update(latest.current);
        setState('ready');
      },
      (error: unknown) => alive && setState({ failed: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      alive = false;
      handle.current?.dispose();
      handle.current = null;
    };
  }, [mount]);

  const { path, original, modified, language, inline, oneSide } = input;
  useEffect(() => {
    handle.current?.update({ path, original, modified, language, inline, oneSide });
  }, [path, original, modified, language, inline, oneSide]);

  return (
    <div className="diff-editor-frame" data-testid="diff-editor" data-state={typeof state === 'string' ? state : 'failed'} data-language={language} data-one-side={oneSide}>
      {state === 'loading' && (
        <p className="diff-editor-loading muted" role="status">
          <span className="spinner" aria-hidden="true" /> Loading the diff viewer…
        </p>
      )}
      {typeof state === 'object' && (
        <p className="inline-error" role="alert">
          The diff viewer could not load: {state.failed}
        </p>
      )}
      <div className="diff-editor-host" ref={element} />
    </div>
  );
}
