import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Box, Button, Group, Loader, SegmentedControl, Text } from '@mantine/core';
import { Canvas, useFrame, useThree } from '@react-three/fiber';
import type { Object3D, Vector3, WebGLRenderer } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { Quality, ThreedLevel } from '@plant/shared-schema';
import { autoQuality, deviceHints, levelFor, lowerQuality, type QualityChoice } from '../quality';
import { isMemoryError, loadLevel } from './load-level';

/*
 * The 3D viewer (DESIGN.md §13, issue 32 items 3 and 6): a model's quality level drawn with three
 * through @react-three/fiber (this chunk loads only on the 3D routes), orbiting the model, lit
 * from above, drawn only when something moves (a tablet's battery). When the GPU runs out of
 * memory (a lost WebGL context, an allocation refused) it reloads the next lower level and says
 * so. Augmented reality through WebXR where the device offers it.
 */

type Loaded =
  | { readonly name: 'loading'; readonly fileId: string }
  | {
      readonly name: 'ready';
      readonly fileId: string;
      readonly scene: Object3D;
      readonly size: number;
      readonly center: Vector3;
    }
  | { readonly name: 'failed'; readonly fileId: string; readonly memory: boolean };

export function ModelViewer(props: {
  readonly levels: readonly ThreedLevel[];
  readonly name: string;
}) {
  const { t } = useLingui();
  const [choice, setChoice] = useState<QualityChoice>('auto');
  const [device] = useState(() => autoQuality(deviceHints()));
  // The quality drawn: the choice (the device's when automatic), lowered after memory trouble.
  const [cap, setCap] = useState<Quality | null>(null);
  const wanted = choice === 'auto' ? device : choice;
  const quality: Quality = cap !== null && rank(cap) < rank(wanted) ? cap : wanted;
  const level = levelFor(props.levels, quality);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [reduced, setReduced] = useState(false);
  // A new context after one was lost: the canvas is made anew.
  const [contextKey, setContextKey] = useState(0);
  const renderer = useRef<WebGLRenderer | null>(null);
  const box = useRef<HTMLDivElement>(null);

  /** Memory ran out at this quality: the next lower level, said once. */
  const lower = (from: Quality) => {
    const next = lowerQuality(from);
    setReduced(true);
    if (next === null) return false;
    setCap(next);
    setContextKey((k) => k + 1);
    return true;
  };
  const lowerRef = useRef(lower);
  lowerRef.current = lower;
  const qualityRef = useRef(quality);
  qualityRef.current = quality;

  const fileId = level?.file_id ?? '';
  useEffect(() => {
    if (fileId === '') return;
    let live = true;
    setLoaded({ name: 'loading', fileId });
    loadLevel(fileId).then(
      (got) => live && setLoaded({ name: 'ready', fileId, ...got }),
      (err: unknown) => {
        if (!live) return;
        if (isMemoryError(err) && lowerRef.current(qualityRef.current)) return;
        setLoaded({ name: 'failed', fileId, memory: isMemoryError(err) });
      },
    );
    return () => {
      live = false;
    };
  }, [fileId]);

  const shown = loaded?.fileId === fileId ? loaded : null;
  return (
    <Box>
      <Group justify="space-between" mb="xs" gap="xs">
        <SegmentedControl
          size="xs"
          value={choice}
          onChange={(v) => {
            setChoice(v);
            setCap(null);
          }}
          aria-label={t`Quality`}
          data-testid="viewer-quality-choice"
          data={[
            { value: 'auto', label: t`Automatic` },
            { value: 'low', label: t`Low` },
            { value: 'medium', label: t`Medium` },
            { value: 'high', label: t`High` },
          ]}
        />
        <ArButton renderer={renderer} />
      </Group>
      {reduced ? (
        <Alert color="orange" role="status" mb="xs" data-testid="viewer-memory">
          {t`Too little available memory, quality reduced and model reloaded`}
        </Alert>
      ) : null}
      <Box
        ref={box}
        pos="relative"
        h="min(70vh, 640px)"
        data-testid="model-viewer"
        data-quality={level?.quality ?? ''}
        data-state={shown?.name ?? 'loading'}
        role="img"
        aria-label={t`3D view of ${props.name}`}
        style={{ borderRadius: 4, overflow: 'hidden', touchAction: 'none' }}
      >
        {shown?.name === 'ready' ? (
          <Canvas
            key={contextKey}
            frameloop="demand"
            dpr={[1, 2]}
            camera={{ fov: 45 }}
            onCreated={({ gl }) => {
              renderer.current = gl;
              gl.domElement.addEventListener('webglcontextlost', (event) => {
                // Ours to handle: a lower level on a new context, not the browser's restore.
                event.preventDefault();
                box.current?.setAttribute('data-drawn', 'false');
                lowerRef.current(qualityRef.current);
              });
            }}
          >
            <color attach="background" args={['#eef1f5']} />
            <hemisphereLight args={['#ffffff', '#8d8d8d', 1.6]} />
            <directionalLight position={[5, 10, 7]} intensity={1.8} />
            <primitive object={shown.scene} />
            <Fit center={shown.center} size={shown.size} />
            <Drawn onDrawn={() => box.current?.setAttribute('data-drawn', 'true')} />
          </Canvas>
        ) : shown?.name === 'failed' ? (
          <Text c="red" p="md" role="alert" data-testid="viewer-failed">
            {shown.memory ? (
              t`Too little available memory, quality reduced and model reloaded`
            ) : (
              <Trans>
                The model cannot be shown: it is not on this device and the server cannot be
                reached.
              </Trans>
            )}
          </Text>
        ) : (
          <Loader m="md" role="status" aria-label={t`Loading the model…`} />
        )}
      </Box>
    </Box>
  );
}

const rank = (q: Quality) => (q === 'low' ? 0 : q === 'medium' ? 1 : 2);

/** The camera fitted to the model, orbiting its centre. */
function Fit(props: { readonly center: Vector3; readonly size: number }) {
  const { camera, gl, invalidate } = useThree();
  const { center, size } = props;
  useLayoutEffect(() => {
    camera.position.set(center.x + size * 0.9, center.y + size * 0.6, center.z + size * 1.2);
    camera.near = size / 500;
    camera.far = size * 100;
    camera.lookAt(center);
    camera.updateProjectionMatrix();
    const controls = new OrbitControls(camera, gl.domElement);
    controls.target.copy(center);
    controls.enableDamping = false;
    controls.update();
    controls.addEventListener('change', () => invalidate());
    invalidate();
    return () => controls.dispose();
  }, [camera, gl, invalidate, center, size]);
  return null;
}

/** Tells once a frame with the model was drawn. */
function Drawn(props: { readonly onDrawn: () => void }) {
  const done = useRef(false);
  useFrame(() => {
    if (done.current) return;
    done.current = true;
    // After this frame's draw: the next task.
    setTimeout(props.onDrawn, 0);
  });
  return null;
}

/**
 * Augmented reality through WebXR's immersive-ar session where the device offers it; elsewhere
 * the button says 'Augmented Reality not available on the device'.
 */
function ArButton(props: { readonly renderer: { readonly current: WebGLRenderer | null } }) {
  const { t } = useLingui();
  const [missing, setMissing] = useState(false);
  const start = async () => {
    const xr = (navigator as Navigator & { xr?: XRSystem }).xr;
    const supported =
      xr !== undefined && (await xr.isSessionSupported('immersive-ar').catch(() => false));
    const gl = props.renderer.current;
    if (!supported || xr === undefined || gl === null) {
      setMissing(true);
      return;
    }
    const session = await xr.requestSession('immersive-ar', { optionalFeatures: ['local-floor'] });
    gl.xr.enabled = true;
    gl.xr.setReferenceSpaceType('local');
    await gl.xr.setSession(session);
  };
  return (
    <Group gap="xs">
      {missing ? (
        <Text size="sm" c="dimmed" role="status" data-testid="viewer-ar-missing">
          {t`Augmented Reality not available on the device`}
        </Text>
      ) : null}
      <Button size="xs" variant="light" onClick={() => void start()} data-testid="viewer-ar">
        <Trans>View in AR</Trans>
      </Button>
    </Group>
  );
}
