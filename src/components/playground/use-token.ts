"use client";
// The bearer token from the navbar's token field, kept in localStorage so it survives reloads
// and is shared by every playground tab of this origin.
import { useCallback, useEffect, useSyncExternalStore } from "react";
import { adoptSharedToken, sharedTokenInUrl } from "./share-dialog";

const tokenStorageKey = "agentfold.token";
const localChange = "agentfold-token-change";

function subscribe(onChange: () => void) {
  window.addEventListener("storage", onChange);
  window.addEventListener(localChange, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(localChange, onChange);
  };
}

function read(): string {
  // A shared link (#token=…) wins until the effect below has moved it into storage.
  const shared = sharedTokenInUrl();
  if (shared) return shared;
  try {
    return window.localStorage.getItem(tokenStorageKey) ?? "";
  } catch {
    return ""; // storage disabled: the field still works for this page view
  }
}

/** The token, or null while it is not known yet (the server render and hydration). */
export function useToken(): [string | null, (token: string) => void] {
  // null, not "", on the server: a request sent before the stored token is read would go out
  // without credentials and fail.
  const token = useSyncExternalStore(subscribe, read, () => null);
  useEffect(() => {
    if (adoptSharedToken(tokenStorageKey)) window.dispatchEvent(new Event(localChange));
  }, []);
  const setToken = useCallback((next: string) => {
    const value = next.trim();
    try {
      if (value) window.localStorage.setItem(tokenStorageKey, value);
      else window.localStorage.removeItem(tokenStorageKey);
    } catch {
      // storage disabled: nothing to keep
    }
    window.dispatchEvent(new Event(localChange));
  }, []);
  return [token, setToken];
}
