/** A set of listeners where one throwing listener cannot stop the others from hearing the news. */
export class ListenerSet<Args extends unknown[]> {
  readonly #listeners = new Set<(...args: Args) => void>();

  add(listener: (...args: Args) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  emit(...args: Args): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(...args);
      } catch (error) {
        console.error('Baton: a listener threw', error);
      }
    }
  }

  get size(): number {
    return this.#listeners.size;
  }

  clear(): void {
    this.#listeners.clear();
  }
}
