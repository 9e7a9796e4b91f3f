import { createContext } from 'react';

/** What the viewer asks of a diff editor; Monaco in the app, a light stand-in where Monaco cannot run (happy-dom). */
export interface DiffInput {
  path: string;
  original: string;
  modified: string;
  language: string;
  inline: boolean;
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
