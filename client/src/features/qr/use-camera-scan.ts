import { useEffect, useRef, useState, type RefObject } from 'react';

/*
 * The decoder (jsQR, about 12 KB) is a chunk of its own, asked for as the camera starts: the
 * scan page's first visit stays within its budget (e2e/bundle-budget.test.ts); the service
 * worker keeps it for offline use.
 */
const loadDecoder = () => import('jsqr').then((m) => m.default);

/** Frames are decoded at most this often: enough to feel instant, light on a phone's battery. */
const DECODE_INTERVAL_MS = 150;
/** Frames are scaled down to this longest side before decoding (a label fills much of a frame). */
const DECODE_MAX_SIDE = 720;

/** Where the camera stands; each failure names what the user can do (scanner page). */
export type CameraState =
  | { readonly name: 'starting' }
  | { readonly name: 'scanning' }
  /** Paused while the page is hidden: the camera is off until it shows again. */
  | { readonly name: 'paused' }
  /** The user or the browser's settings refused the camera. */
  | { readonly name: 'denied' }
  | { readonly name: 'no-camera' }
  /** Another app holds the camera, or it failed to start. */
  | { readonly name: 'busy' }
  /** No camera API: an old browser, or a page not served over https. */
  | { readonly name: 'unsupported' };

function failureOf(error: unknown): CameraState {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
    case 'PermissionDeniedError':
      return { name: 'denied' };
    case 'NotFoundError':
    case 'OverconstrainedError':
    case 'DevicesNotFoundError':
      return { name: 'no-camera' };
    default:
      return { name: 'busy' };
  }
}

function stopTracks(stream: MediaStream): void {
  for (const track of stream.getTracks()) track.stop();
}

/**
 * Runs the device camera (the rear one where there is a choice) into `video` and decodes its
 * frames with jsQR in the page; each code's text goes to `onCode`. The camera is stopped when the
 * component unmounts (leaving the page), while the page is hidden, and when `retry` changes
 * before it starts again.
 */
export function useCameraScan(
  video: RefObject<HTMLVideoElement | null>,
  onCode: (text: string) => void,
  retry: number,
): CameraState {
  const [state, setState] = useState<CameraState>({ name: 'starting' });
  const [hidden, setHidden] = useState(() => document.visibilityState === 'hidden');
  const onCodeRef = useRef(onCode);
  useEffect(() => {
    onCodeRef.current = onCode;
  });

  useEffect(() => {
    const update = () => setHidden(document.visibilityState === 'hidden');
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  }, []);

  useEffect(() => {
    if (hidden) {
      setState({ name: 'paused' });
      return;
    }
    const media = navigator.mediaDevices as MediaDevices | undefined;
    if (media === undefined || typeof media.getUserMedia !== 'function') {
      setState({ name: 'unsupported' });
      return;
    }
    let stopped = false;
    let stream: MediaStream | null = null;
    let shown: HTMLVideoElement | null = null;
    let frame = 0;
    setState({ name: 'starting' });
    void (async () => {
      const decoder = loadDecoder();
      let started: MediaStream;
      try {
        started = await media.getUserMedia({
          audio: false,
          video: { facingMode: { ideal: 'environment' } },
        });
      } catch (error) {
        if (!stopped) setState(failureOf(error));
        return;
      }
      // Left (or hidden) while the browser asked: the camera goes off at once.
      if (stopped || video.current === null) {
        stopTracks(started);
        return;
      }
      stream = started;
      const element = video.current;
      shown = element;
      element.srcObject = started;
      // Autoplay of a muted inline video is allowed; a refusal still shows the first frames.
      await element.play().catch(() => undefined);
      let jsQR: Awaited<ReturnType<typeof loadDecoder>>;
      try {
        jsQR = await decoder;
      } catch (error) {
        // The decoder did not come (offline before the app was kept): no camera for nothing.
        stopTracks(started);
        if (!stopped) setState(failureOf(error));
        return;
      }
      if (stopped) return;
      setState({ name: 'scanning' });
      const canvas = document.createElement('canvas');
      const context = canvas.getContext('2d', { willReadFrequently: true });
      let last = 0;
      const tick = (now: number) => {
        if (stopped) return;
        frame = requestAnimationFrame(tick);
        const { videoWidth: w, videoHeight: h } = element;
        if (context === null || now - last < DECODE_INTERVAL_MS || w === 0 || h === 0) return;
        last = now;
        const scale = Math.min(1, DECODE_MAX_SIDE / Math.max(w, h));
        canvas.width = Math.round(w * scale);
        canvas.height = Math.round(h * scale);
        context.drawImage(element, 0, 0, canvas.width, canvas.height);
        const image = context.getImageData(0, 0, canvas.width, canvas.height);
        const code = jsQR(image.data, image.width, image.height);
        if (code !== null && code.data !== '') onCodeRef.current(code.data);
      };
      frame = requestAnimationFrame(tick);
    })();
    return () => {
      stopped = true;
      cancelAnimationFrame(frame);
      if (stream !== null) stopTracks(stream);
      if (shown !== null) shown.srcObject = null;
    };
  }, [video, hidden, retry]);

  return state;
}
