import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Box, Button, Group, Loader, SegmentedControl, Text } from '@mantine/core';
import { Canvas, useFrame, useThree, type ThreeEvent } from '@react-three/fiber';
import {
  Box3,
  Matrix4,
  Vector3,
  type Group as ThreeGroup,
  type Mesh,
  type Object3D,
  type WebGLRenderer,
} from 'three';
import { MapControls } from 'three/examples/jsm/controls/MapControls.js';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { Quality, SceneCamera, SceneQuality, ThreedLevel, Vec3 } from '@plant/shared-schema';
import { autoQuality, deviceHints, levelFor, lowerQuality, type QualityChoice } from '../quality';
import { isMemoryError, loadLevel } from './load-level';

/*
 * The 3D viewer (DESIGN.md §13, issue 32 items 3, 4 and 6): a scene's placed models, each at its
 * quality level, drawn with three through @react-three/fiber (this chunk loads only on the 3D
 * routes), only when something moves (a tablet's battery). Orbit around a model when one is
 * active or the scene has one; free (pan and turn) otherwise. Hotspots are buttons over the
 * canvas, kept on their points as the camera moves. In picking mode a click on a model answers
 * the point in that model's own metres; a click beside every model answers null. When the GPU
 * runs out of memory (a lost WebGL context, an allocation refused) it reloads the next lower
 * level and says so. Augmented reality through WebXR where the device offers it.
 */

/** One model as the scene places it. */
export interface PlacementView {
  readonly id: string;
  readonly name: string;
  readonly levels: readonly ThreedLevel[];
  readonly position: Vec3;
  /** Degrees about X, Y and Z. */
  readonly rotation: Vec3;
  readonly flipX: boolean;
  readonly quality: SceneQuality;
}

export interface HotspotView {
  readonly id: string;
  readonly threedmodelId: string;
  readonly point: Vec3;
  readonly normal: Vec3;
  /** What its button shows (icon, name, live value) and says to a screen reader. */
  readonly content: ReactNode;
  readonly label: string;
}

/** A point picked on a model: in the model's own metres, with the surface's direction there. */
export interface PickedPoint {
  readonly threedmodelId: string;
  readonly point: Vec3;
  readonly normal: Vec3;
}

/** What the page reads from the viewer: the view shown now. */
export interface ViewerHandle {
  currentCamera(): SceneCamera | null;
  /** Where a hotspot's point is in the scene (metres), for a view that looks at it. */
  worldPoint(threedmodelId: string, point: Vec3): Vec3 | null;
}

export interface SceneViewerProps {
  readonly name: string;
  readonly placements: readonly PlacementView[];
  /** The view it opens with; null: fitted to the models. */
  readonly camera: SceneCamera | null;
  readonly hotspots?: readonly HotspotView[];
  readonly selectedHotspot?: string | null;
  readonly onSelectHotspot?: (id: string) => void;
  /** The model orbited (its centre); null: the only one, else free navigation. */
  readonly activeModel?: string | null;
  /** Clicks pick points (edit mode). */
  readonly picking?: boolean;
  readonly onPick?: (picked: PickedPoint | null) => void;
  /** A view to go to: each new key moves the camera there. */
  readonly jump?: { readonly key: number; readonly camera: SceneCamera } | null;
  readonly handle?: RefObject<ViewerHandle | null>;
}

type LevelState =
  | { readonly name: 'ready'; readonly scene: Object3D }
  | { readonly name: 'failed'; readonly memory: boolean };

const rank = (q: Quality) => (q === 'low' ? 0 : q === 'medium' ? 1 : 2);
const DEG = Math.PI / 180;
/** A click that moved further than this (px) was a drag of the view, not a pick. */
const CLICK_SLOP = 6;

export function SceneViewer(props: SceneViewerProps) {
  const { t } = useLingui();
  const [choice, setChoice] = useState<QualityChoice>('auto');
  const [device] = useState(() => autoQuality(deviceHints()));
  // The highest quality drawn after memory trouble; null: none yet.
  const [cap, setCap] = useState<Quality | null>(null);
  const [reduced, setReduced] = useState(false);
  // A new context after one was lost: the canvas is made anew.
  const [contextKey, setContextKey] = useState(0);
  const [levels, setLevels] = useState<ReadonlyMap<string, LevelState>>(new Map());
  const renderer = useRef<WebGLRenderer | null>(null);
  const box = useRef<HTMLDivElement>(null);

  const qualityOf = (p: PlacementView): Quality => {
    const wanted: Quality = p.quality !== 'auto' ? p.quality : choice === 'auto' ? device : choice;
    return cap !== null && rank(cap) < rank(wanted) ? cap : wanted;
  };
  const placed = props.placements.flatMap((p) => {
    const level = levelFor(p.levels, qualityOf(p));
    return level === undefined ? [] : [{ placement: p, level }];
  });
  const key = placed.map((p) => p.level.file_id).join(',');

  /** Memory ran out: every model one level lower, said once; false below low. */
  const lower = () => {
    setReduced(true);
    const highest = placed.reduce<Quality>(
      (q, p) => (rank(p.level.quality) > rank(q) ? p.level.quality : q),
      'low',
    );
    const next = lowerQuality(cap !== null && rank(cap) < rank(highest) ? cap : highest);
    if (next === null) return false;
    setCap(next);
    setContextKey((k) => k + 1);
    return true;
  };
  const lowerRef = useRef(lower);
  lowerRef.current = lower;
  // The canvas drawn now (its key), -1 once the viewer is gone: r3f forces a context loss on a
  // canvas it lets go (a new one after memory trouble, the viewer closed), which is no memory
  // trouble of the canvas drawn now.
  const liveCanvas = useRef(contextKey);
  useEffect(() => {
    liveCanvas.current = contextKey;
    return () => {
      liveCanvas.current = -1;
    };
  }, [contextKey]);

  useEffect(() => {
    let live = true;
    // Levels no longer drawn (another quality, a model taken out) are let go: after memory ran
    // out, the higher level must not stay held beside the lower one.
    const wanted = new Set(key.split(','));
    setLevels((m) => {
      const dropped = [...m].filter(([id]) => !wanted.has(id));
      if (dropped.length === 0) return m;
      for (const [, state] of dropped) if (state.name === 'ready') disposeLevel(state.scene);
      return new Map([...m].filter(([id]) => wanted.has(id)));
    });
    for (const fileId of wanted) {
      if (fileId === '' || levels.has(fileId)) continue;
      loadLevel(fileId).then(
        (got) => live && setLevels((m) => new Map(m).set(fileId, { name: 'ready', ...got })),
        (err: unknown) => {
          if (!live) return;
          if (isMemoryError(err) && lowerRef.current()) return;
          setLevels((m) => new Map(m).set(fileId, { name: 'failed', memory: isMemoryError(err) }));
        },
      );
    }
    return () => {
      live = false;
    };
    // Loads what the key names and is not here yet; `levels` is read, not watched.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  const states = placed.map((p) => levels.get(p.level.file_id));
  const ready = placed.flatMap((p) => {
    const state = levels.get(p.level.file_id);
    return state?.name === 'ready' ? [{ ...p, scene: state.scene }] : [];
  });
  const loading = states.some((s) => s === undefined);
  const failed = states.find((s) => s?.name === 'failed');
  const state = loading ? 'loading' : ready.length > 0 ? 'ready' : failed ? 'failed' : 'empty';
  // Whether the canvas was made: it stays while another level loads (a quality change).
  const [started, setStarted] = useState(false);
  if (state === 'ready' && !started) setStarted(true);
  const nav =
    (props.activeModel ?? null) !== null || props.placements.length === 1 ? 'orbit' : 'free';
  const pointerDown = useRef<{ x: number; y: number } | null>(null);
  const markers = useRef(new Map<string, HTMLElement>());

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
        data-quality={placed[0]?.level.quality ?? ''}
        data-state={state}
        data-nav={nav}
        data-picking={props.picking === true ? 'true' : 'false'}
        role="group"
        aria-label={t`3D view of ${props.name}`}
        style={{
          borderRadius: 4,
          overflow: 'hidden',
          touchAction: 'none',
          cursor: props.picking === true ? 'crosshair' : undefined,
        }}
        onPointerDown={(e) => {
          pointerDown.current = { x: e.clientX, y: e.clientY };
        }}
      >
        {state === 'ready' || (state === 'loading' && started) ? (
          <>
            {/* Made once the first levels are read, so that its first frame draws them (a canvas
                made while they loaded drew an empty frame first, and the models' waited behind
                it), and kept while another level loads. Measured at once: r3f's default waits
                50 ms after the box's size is known (a debounce meant for scrolling; our events
                read offsets, not the page's scroll). */}
            <Canvas
              key={contextKey}
              frameloop="demand"
              resize={{ scroll: false, debounce: 0 }}
              dpr={[1, 2]}
              camera={{ fov: 45 }}
              aria-hidden
              onCreated={({ gl }) => {
                renderer.current = gl;
                const canvas = contextKey;
                gl.domElement.addEventListener('webglcontextlost', (event) => {
                  if (liveCanvas.current !== canvas) return;
                  // Ours to handle: a lower level on a new context, not the browser's restore.
                  event.preventDefault();
                  box.current?.setAttribute('data-drawn', 'false');
                  lowerRef.current();
                });
              }}
              onPointerMissed={(event) => {
                if (props.picking !== true || event.type !== 'click') return;
                const down = pointerDown.current;
                if (down !== null && moved(down, event)) return;
                props.onPick?.(null);
              }}
            >
              <color attach="background" args={['#eef1f5']} />
              <hemisphereLight args={['#ffffff', '#8d8d8d', 1.6]} />
              <directionalLight position={[5, 10, 7]} intensity={1.8} />
              {ready.map(({ placement, scene }) => (
                <Placed
                  key={placement.id}
                  placement={placement}
                  scene={scene}
                  onPick={
                    props.picking === true
                      ? (event) => {
                          event.stopPropagation();
                          if (event.delta > CLICK_SLOP) return;
                          props.onPick?.(pickedOn(placement.id, event));
                        }
                      : undefined
                  }
                />
              ))}
              <Controls
                nav={nav}
                activeModel={
                  nav === 'orbit' ? (props.activeModel ?? props.placements[0]?.id ?? null) : null
                }
                camera={props.camera}
                jump={props.jump ?? null}
                handle={props.handle}
                layout={`${key}:${String(ready.length)}`}
              />
              <Markers hotspots={props.hotspots ?? []} elements={markers} />
              <Drawn
                complete={state === 'ready'}
                layout={key}
                onDrawn={() => box.current?.setAttribute('data-drawn', 'true')}
                onOutOfMemory={() => lowerRef.current()}
              />
            </Canvas>
            {state === 'loading' ? (
              <Loader
                pos="absolute"
                top="var(--mantine-spacing-md)"
                left="var(--mantine-spacing-md)"
                role="status"
                aria-label={t`Loading the model…`}
              />
            ) : null}
            {(props.hotspots ?? []).map((h) => (
              <button
                key={h.id}
                type="button"
                ref={(el) => {
                  if (el === null) markers.current.delete(h.id);
                  else markers.current.set(h.id, el);
                }}
                className="hotspot-marker"
                data-testid="hotspot-marker"
                data-id={h.id}
                data-selected={props.selectedHotspot === h.id ? 'true' : 'false'}
                aria-label={h.label}
                aria-pressed={props.selectedHotspot === h.id}
                onClick={() => props.onSelectHotspot?.(h.id)}
                style={{
                  position: 'absolute',
                  left: 0,
                  top: 0,
                  visibility: 'hidden',
                  border: 'none',
                  background: 'none',
                  padding: 0,
                  cursor: 'pointer',
                }}
              >
                {h.content}
              </button>
            ))}
          </>
        ) : state === 'failed' ? (
          <Text c="red" p="md" role="alert" data-testid="viewer-failed">
            {failed?.name === 'failed' && failed.memory ? (
              t`Too little available memory, quality reduced and model reloaded`
            ) : (
              <Trans>
                The model cannot be shown: it is not on this device and the server cannot be
                reached.
              </Trans>
            )}
          </Text>
        ) : state === 'empty' ? (
          <Text c="dimmed" p="md" data-testid="viewer-empty">
            <Trans>No 3D model is placed in this scene yet.</Trans>
          </Text>
        ) : (
          <Loader m="md" role="status" aria-label={t`Loading the model…`} />
        )}
      </Box>
    </Box>
  );
}

/** A level's geometries and materials, released (the objects go with their last reference). */
function disposeLevel(scene: Object3D): void {
  scene.traverse((object) => {
    const mesh = object as Partial<Mesh>;
    mesh.geometry?.dispose();
    const materials = mesh.material === undefined ? [] : [mesh.material].flat();
    for (const material of materials) material.dispose();
  });
}

function moved(down: { x: number; y: number }, event: MouseEvent): boolean {
  return Math.hypot(event.clientX - down.x, event.clientY - down.y) > CLICK_SLOP;
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;
const vec = (v: Vector3): Vec3 => [round(v.x), round(v.y), round(v.z)];

/** The hit of a click on a placed model, in that model's own frame. */
function pickedOn(threedmodelId: string, event: ThreeEvent<MouseEvent>): PickedPoint {
  const group = event.eventObject;
  const toLocal = new Matrix4().copy(group.matrixWorld).invert();
  const point = event.point.clone().applyMatrix4(toLocal);
  const normal =
    event.face === null || event.face === undefined
      ? new Vector3(0, 1, 0)
      : event.face.normal
          .clone()
          .transformDirection(event.object.matrixWorld)
          .transformDirection(toLocal);
  return { threedmodelId, point: vec(point), normal: vec(normal.normalize()) };
}

/** One model where the scene places it: moved, turned (XYZ, degrees), mirrored along X. */
function Placed(props: {
  readonly placement: PlacementView;
  readonly scene: Object3D;
  readonly onPick: ((event: ThreeEvent<MouseEvent>) => void) | undefined;
}) {
  const { placement } = props;
  const [rx, ry, rz] = placement.rotation;
  return (
    <group
      name={placement.id}
      userData={{ placement: placement.id }}
      position={placement.position}
      rotation={[rx * DEG, ry * DEG, rz * DEG]}
      scale={[placement.flipX ? -1 : 1, 1, 1]}
      {...(props.onPick === undefined ? {} : { onClick: props.onPick })}
    >
      <primitive object={props.scene} />
    </group>
  );
}

/** The placed models' groups (by model id), as three holds them. */
function placedGroups(scene: Object3D): Map<string, ThreeGroup> {
  const groups = new Map<string, ThreeGroup>();
  for (const child of scene.children) {
    const id = (child.userData as { placement?: unknown }).placement;
    if (typeof id === 'string') groups.set(id, child as ThreeGroup);
  }
  return groups;
}

/**
 * The camera and its controls: orbit around the active model's centre, or free (pan with the
 * first button, turn with the second), starting at the scene's view or fitted to its models.
 */
function Controls(props: {
  readonly nav: 'orbit' | 'free';
  readonly activeModel: string | null;
  readonly camera: SceneCamera | null;
  readonly jump: { readonly key: number; readonly camera: SceneCamera } | null;
  readonly handle: RefObject<ViewerHandle | null> | undefined;
  /** Changes when the models drawn change (a level swapped, a model placed). */
  readonly layout: string;
}) {
  const { camera, gl, scene, invalidate } = useThree();
  const controls = useRef<OrbitControls | null>(null);
  const fitted = useRef(false);
  const { nav, activeModel, handle } = props;

  useLayoutEffect(() => {
    scene.updateMatrixWorld(true);
    const groups = placedGroups(scene);
    const all = new Box3();
    for (const g of groups.values()) all.expandByObject(g);
    const active = activeModel === null ? undefined : groups.get(activeModel);
    const focus = active === undefined ? all : new Box3().setFromObject(active);
    const center = focus.isEmpty() ? new Vector3() : focus.getCenter(new Vector3());
    const size = all.isEmpty() ? 1 : all.getSize(new Vector3()).length() || 1;
    camera.near = size / 500;
    camera.far = size * 100;
    const made =
      nav === 'orbit'
        ? new OrbitControls(camera, gl.domElement)
        : new MapControls(camera, gl.domElement);
    made.enableDamping = false;
    if (nav === 'orbit') made.enablePan = false;
    // Until a model is here there is nothing to fit: the first view comes with the first model.
    const start = fitted.current ? null : props.camera;
    if (start !== null) {
      camera.position.set(...start.position);
      made.target.set(...start.target);
    } else if (!fitted.current || nav === 'orbit') {
      // First view, or a new model to orbit: the whole scene (or that model) in sight.
      const offset =
        controls.current === null ? null : camera.position.clone().sub(controls.current.target);
      made.target.copy(center);
      if (offset === null || !fitted.current)
        camera.position.set(center.x + size * 0.9, center.y + size * 0.6, center.z + size * 1.2);
      else camera.position.copy(center).add(offset);
    } else {
      made.target.copy(controls.current?.target ?? center);
    }
    if (groups.size > 0) fitted.current = true;
    camera.updateProjectionMatrix();
    made.update();
    made.addEventListener('change', () => invalidate());
    controls.current = made;
    invalidate();
    return () => made.dispose();
    // The scene's stored view is where it opens, not a view to return to on each change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [camera, gl, scene, invalidate, nav, activeModel, props.layout]);

  const jumpKey = props.jump?.key;
  useEffect(() => {
    const to = props.jump?.camera;
    const made = controls.current;
    if (to === undefined || made === null) return;
    camera.position.set(...to.position);
    made.target.set(...to.target);
    made.update();
    invalidate();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [jumpKey]);

  useEffect(() => {
    if (handle === undefined) return;
    handle.current = {
      currentCamera: () => {
        const made = controls.current;
        if (made === null) return null;
        return { position: vec(camera.position), target: vec(made.target) };
      },
      worldPoint: (threedmodelId, point) => {
        const group = placedGroups(scene).get(threedmodelId);
        if (group === undefined) return null;
        group.updateMatrixWorld(true);
        return vec(new Vector3(...point).applyMatrix4(group.matrixWorld));
      },
    };
    return () => {
      handle.current = null;
    };
  }, [handle, camera, scene]);
  return null;
}

/** Keeps each hotspot's button over its point (hidden behind the camera), frame by frame. */
function Markers(props: {
  readonly hotspots: readonly HotspotView[];
  readonly elements: RefObject<Map<string, HTMLElement>>;
}) {
  const { scene, invalidate, size } = useThree();
  const { hotspots, elements } = props;
  useEffect(() => {
    invalidate();
  }, [hotspots, invalidate]);
  const at = new Vector3();
  useFrame(({ camera }) => {
    // Before this frame's render: the camera and the models as moved since the last one.
    camera.updateMatrixWorld();
    scene.updateMatrixWorld();
    const groups = placedGroups(scene);
    for (const h of hotspots) {
      const el = elements.current.get(h.id);
      if (el === undefined) continue;
      const group = groups.get(h.threedmodelId);
      if (group === undefined) {
        el.style.visibility = 'hidden';
        continue;
      }
      at.set(...h.point).applyMatrix4(group.matrixWorld);
      at.project(camera);
      const visible = at.z < 1 && Math.abs(at.x) <= 1.05 && Math.abs(at.y) <= 1.05;
      el.style.visibility = visible ? 'visible' : 'hidden';
      const x = ((at.x + 1) / 2) * size.width;
      const y = ((1 - at.y) / 2) * size.height;
      el.style.transform = `translate(-50%, -50%) translate(${x.toFixed(1)}px, ${y.toFixed(1)}px)`;
    }
  });
  return null;
}

/**
 * Tells once a frame with the models was drawn: right after the first frame's render (a microtask
 * of the frame's task), when one pixel read back says the GPU has finished it (SwiftShader and
 * slow GPUs draw well after the calls return). After each frame that first draws other levels,
 * asks the context whether an allocation was refused: WebGL says a GPU out of memory for a
 * level's buffers or textures by OUT_OF_MEMORY, not by a throw or (always) a lost context; then
 * `onOutOfMemory` (a lower level) and answers false when there is none lower.
 */
function Drawn(props: {
  readonly complete: boolean;
  /** The levels drawn: each new set is checked once. */
  readonly layout: string;
  readonly onDrawn: () => void;
  readonly onOutOfMemory: () => boolean;
}) {
  const done = useRef(false);
  const checked = useRef<string | null>(null);
  const current = useRef(props);
  current.current = props;
  const gl = useThree((state) => state.gl);
  const invalidate = useThree((state) => state.invalidate);
  useEffect(() => {
    if (props.complete) invalidate();
  }, [props.complete, props.layout, invalidate]);
  useFrame(() => {
    const { complete, layout } = current.current;
    if (!complete || checked.current === layout) return;
    checked.current = layout;
    queueMicrotask(() => {
      const context = gl.getContext();
      context.readPixels(0, 0, 1, 1, context.RGBA, context.UNSIGNED_BYTE, new Uint8Array(4));
      if (outOfMemory(context) && current.current.onOutOfMemory()) return;
      if (done.current) return;
      done.current = true;
      current.current.onDrawn();
    });
  });
  return null;
}

/** Whether the context recorded an out-of-memory error (its error flags read, and so cleared). */
function outOfMemory(context: WebGLRenderingContext | WebGL2RenderingContext): boolean {
  let found = false;
  // A context keeps one flag per kind of error: a few reads clear them all.
  for (let i = 0; i < 8; i++) {
    const error = context.getError();
    if (error === context.NO_ERROR) break;
    if (error === context.OUT_OF_MEMORY) found = true;
  }
  return found;
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
    try {
      const session = await xr.requestSession('immersive-ar', {
        optionalFeatures: ['local-floor'],
      });
      gl.xr.enabled = true;
      gl.xr.setReferenceSpaceType('local');
      await gl.xr.setSession(session);
    } catch {
      // Offered, but not given (the camera refused, the session ended at once): said as missing.
      gl.xr.enabled = false;
      setMissing(true);
    }
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
