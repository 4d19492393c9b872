import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { useDirection } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { useRouterState } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { transitionAtom } from '../../state/preferences';

const DURATION_MS = { fade: 180, slide: 220 } as const;

/**
 * Page transitions (spec 000 §2): each new page fades in (default) or slides in from the inline
 * end, nothing when the system asks for reduced motion. Played with the Web Animations API on a
 * wrapper, so the page is not mounted again (its state and subscriptions stay) and nothing of it
 * is left after the animation (no transform that would trap fixed children).
 */
export function PageTransition({ children }: { readonly children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const pathname = useRouterState({ select: (s) => s.resolvedLocation?.pathname ?? null });
  const transition = useAtomValue(transitionAtom);
  const reduced = useReducedMotion();
  const { dir } = useDirection();
  const seen = useRef<string | null>(null);

  useLayoutEffect(() => {
    const first = seen.current === null;
    const changed = seen.current !== pathname;
    seen.current = pathname;
    const element = ref.current;
    if (first || !changed || reduced || element === null) return;
    const offset = dir === 'rtl' ? -24 : 24;
    const frames: Keyframe[] =
      transition === 'slide'
        ? [
            { opacity: 0, transform: `translateX(${offset}px)` },
            { opacity: 1, transform: 'none' },
          ]
        : [{ opacity: 0 }, { opacity: 1 }];
    const animation = element.animate(frames, {
      duration: DURATION_MS[transition],
      easing: 'ease-out',
    });
    return () => animation.cancel();
  }, [pathname, transition, reduced, dir]);

  return (
    <div ref={ref} data-testid="page" data-transition={reduced ? 'none' : transition}>
      {children}
    </div>
  );
}
