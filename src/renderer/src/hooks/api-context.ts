import { createContext, useContext } from 'react';
import type { BatonApi } from '../api';

export const ApiContext = createContext<BatonApi | null>(null);

/** The API the App was given; components never create their own. */
export function useApi(): BatonApi {
  const api = useContext(ApiContext);
  if (api === null) throw new Error('useApi must be used inside <ApiContext.Provider>');
  return api;
}
