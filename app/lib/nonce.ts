import { createContext, useContext } from "react";

/**
 * The per-request CSP nonce. entry.server provides it; every inline or module
 * script the app renders must carry it. In the browser the value is not needed
 * (scripts already ran), so the context is simply empty there.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
