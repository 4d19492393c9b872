import { useEffect, useRef, type RefObject } from 'react';

/** Whether the component is still on screen: an answer that arrives later changes nothing. */
export function useMounted(): RefObject<boolean> {
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return mounted;
}
