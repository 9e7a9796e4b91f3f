import { createContext } from 'react';

/** What the viewer asks of a diff editor; Monaco in the app, a light stand-in where Monaco cannot run (happy-dom). */
export interface DiffInput {
  path: string;
  original: string;
  modified: string;
  language: string;
  inline: boolean;
  /**
   * A file that exists on one side only (added, untracked or deleted): shown as that one side, all
   * lines marked, instead of a diff against an empty model (which drew a phantom `1 −` / `1 +`).
   */
  oneSide?: 'added' | 'deleted';
}

export interface DiffEditorHandle {
  update(input: DiffInput): void;
  dispose(): void;
}

export type MountDiffEditor = (element: HTMLElement, input: DiffInput) => Promise<DiffEditorHandle>;

/**
 * Monaco is several megabytes: it is fetched the first time a diff is shown, never on the first
 * screen. The import is a separate chunk that Vite emits next to the app.
 */
export const mountMonacoDiff: MountDiffEditor = async (element, input) => {
  const { mountDiffEditor } = await import('./monaco-diff');
  return mountDiffEditor(element, input);
};

export const DiffEditorContext = createContext<MountDiffEditor>(mountMonacoDiff);
