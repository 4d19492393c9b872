import { useEffect, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import classes from './tasks.module.css';

const WIDTH = 600;
const HEIGHT = 200;

/**
 * A finger signature (issue 37 item 2): drawn with a finger, a pen or a mouse on a canvas
 * (pointer events, so a tablet's touch works and the page does not scroll while signing), or
 * typed as a name for who cannot draw (keyboard, screen reader). Each finished stroke hands the
 * picture on as a PNG; Clear empties it.
 */
export function SignaturePad(props: {
  readonly label: string;
  readonly signed: Blob | null;
  readonly onSigned: (png: Blob | null) => void;
  readonly disabled?: boolean;
}) {
  const { t } = useLingui();
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const [typed, setTyped] = useState('');
  const { signed, onSigned } = props;
  const disabled = props.disabled === true;

  // A stored signature (a draft after a reload) is drawn back.
  useEffect(() => {
    const c = canvas.current;
    const ctx = c?.getContext('2d');
    if (c === null || ctx === null || ctx === undefined) return;
    ctx.clearRect(0, 0, WIDTH, HEIGHT);
    if (signed === null) return;
    let url: string | null = URL.createObjectURL(signed);
    const img = new Image();
    img.onload = () => {
      ctx.drawImage(img, 0, 0);
      if (url !== null) URL.revokeObjectURL(url);
      url = null;
    };
    img.src = url;
    return () => {
      if (url !== null) URL.revokeObjectURL(url);
    };
  }, [signed]);

  const hand = () =>
    new Promise<void>((resolve) => {
      canvas.current?.toBlob((blob) => {
        if (blob !== null) onSigned(blob);
        resolve();
      }, 'image/png');
    });

  const at = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    return {
      x: ((e.clientX - box.left) / box.width) * WIDTH,
      y: ((e.clientY - box.top) / box.height) * HEIGHT,
    };
  };

  const typeName = () => {
    const ctx = canvas.current?.getContext('2d');
    if (ctx === null || ctx === undefined || typed.trim() === '') return;
    ctx.clearRect(0, 0, WIDTH, HEIGHT);
    ctx.fillStyle = '#111';
    ctx.font = 'italic 48px serif';
    ctx.fillText(typed.trim(), 24, HEIGHT / 2 + 16, WIDTH - 48);
    void hand();
  };

  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {props.label}
      </Text>
      <canvas
        ref={canvas}
        width={WIDTH}
        height={HEIGHT}
        className={classes.signature}
        role="img"
        aria-label={signed === null ? t`Signature: empty` : t`Signature: signed`}
        data-testid="signature-pad"
        data-signed={signed === null ? 'false' : 'true'}
        onPointerDown={(e) => {
          if (disabled) return;
          e.currentTarget.setPointerCapture(e.pointerId);
          const ctx = e.currentTarget.getContext('2d');
          if (ctx === null) return;
          drawing.current = true;
          const p = at(e);
          ctx.lineWidth = 3;
          ctx.lineCap = 'round';
          ctx.strokeStyle = '#111';
          ctx.beginPath();
          ctx.moveTo(p.x, p.y);
        }}
        onPointerMove={(e) => {
          if (!drawing.current) return;
          const ctx = e.currentTarget.getContext('2d');
          const p = at(e);
          ctx?.lineTo(p.x, p.y);
          ctx?.stroke();
        }}
        onPointerUp={() => {
          if (!drawing.current) return;
          drawing.current = false;
          void hand();
        }}
      />
      <Group gap="xs" align="flex-end">
        <TextInput
          label={t`Or type your name to sign`}
          value={typed}
          onChange={(e) => setTyped(e.currentTarget.value)}
          disabled={disabled}
          size="xs"
        />
        <Button size="xs" variant="default" onClick={typeName} disabled={disabled}>
          <Trans>Sign with name</Trans>
        </Button>
        <Button
          size="xs"
          variant="subtle"
          onClick={() => onSigned(null)}
          disabled={disabled || signed === null}
        >
          <Trans>Clear signature</Trans>
        </Button>
      </Group>
    </Stack>
  );
}
