import { useCallback, useEffect, useState } from 'react';
import { pushSupported, readPushState, type PushState } from './push';

/**
 * Where push stands (null while it is read), read again by `refresh` and whenever the
 * notification permission changes outside the page (the site's settings, another tab).
 */
export function usePushState(): readonly [PushState | null, () => void] {
  const [state, setState] = useState<PushState | null>(null);
  const [round, setRound] = useState(0);
  const refresh = useCallback(() => setRound((r) => r + 1), []);

  useEffect(() => {
    let live = true;
    void readPushState().then((next) => {
      if (live) setState(next);
    });
    return () => {
      live = false;
    };
  }, [round]);

  useEffect(() => {
    if (!pushSupported() || !('permissions' in navigator)) return;
    let live = true;
    let status: PermissionStatus | null = null;
    navigator.permissions.query({ name: 'notifications' }).then(
      (s) => {
        if (!live) return;
        status = s;
        s.addEventListener('change', refresh);
      },
      () => undefined,
    );
    return () => {
      live = false;
      status?.removeEventListener('change', refresh);
    };
  }, [refresh]);

  return [state, refresh] as const;
}
