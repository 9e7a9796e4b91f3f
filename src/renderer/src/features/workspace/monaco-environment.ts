import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import CssWorker from 'monaco-editor/language/css/css.worker?worker';
import HtmlWorker from 'monaco-editor/language/html/html.worker?worker';
import JsonWorker from 'monaco-editor/language/json/json.worker?worker';
import TsWorker from 'monaco-editor/language/typescript/ts.worker?worker';

/**
 * Monaco's workers, bundled by Vite as files next to the app so the CSP's `worker-src 'self'`
 * covers them (monaco-editor 0.57 resolves `monaco-editor/<path>` to `esm/vs/<path>.js`; the old
 * `esm/vs/...?worker` specifiers no longer resolve). The diff itself is computed in the editor worker.
 */
export function installMonacoEnvironment(): void {
  const scope = self as unknown as { MonacoEnvironment?: { getWorker(workerId: string, label: string): Worker } };
  if (scope.MonacoEnvironment !== undefined) return;
  scope.MonacoEnvironment = {
    getWorker(_workerId: string, label: string): Worker {
      switch (label) {
        case 'json':
          return new JsonWorker();
        case 'css':
        case 'scss':
        case 'less':
          return new CssWorker();
        case 'html':
        case 'handlebars':
        case 'razor':
          return new HtmlWorker();
        case 'typescript':
        case 'javascript':
          return new TsWorker();
        default:
          return new EditorWorker();
      }
    },
  };
}
