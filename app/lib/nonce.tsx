import { createContext, useContext } from "react";

/** The response's CSP nonce on the server; an empty string in the browser. */
export const NonceContext = createContext("");
export const useNonce = () => useContext(NonceContext);
