import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Button, Group, List, Stack, Text, ThemeIcon } from '@mantine/core';
import { CALL_TEXTS } from '@plant/shared-schema';
import { translateServerText } from '../../../i18n/server-texts';
import type { CallIdentity } from './signalling';

/*
 * The pre-call check (issue 34 item 3): camera, microphone, screen share and the signalling,
 * each tested alone, so a call's failure message has one cause and the user knows which.
 */

type Part = 'camera' | 'microphone' | 'screen' | 'signalling';
type Outcome = 'pending' | 'ok' | 'failed';

const PARTS: readonly Part[] = ['camera', 'microphone', 'screen', 'signalling'];

const PART_WORDS: Record<Part, MessageDescriptor> = {
  camera: msg`Camera`,
  microphone: msg`Microphone`,
  screen: msg`Screen share`,
  signalling: msg`Connection for calls`,
};

const CAMERA_FAILED = msg`The camera cannot be used (check permission)`;
const MICROPHONE_FAILED = msg`The microphone cannot be used (check permission)`;

/** Takes a device and gives it back at once: whether the browser let us have it. */
async function tried(take: () => Promise<MediaStream>): Promise<boolean> {
  try {
    const stream = await take();
    for (const track of stream.getTracks()) track.stop();
    return true;
  } catch {
    return false;
  }
}

export function PreCallCheck(props: { readonly who: CallIdentity }) {
  const { i18n } = useLingui();
  const [outcomes, setOutcomes] = useState<Partial<Record<Part, Outcome>>>({});
  const run = async () => {
    setOutcomes({
      camera: 'pending',
      microphone: 'pending',
      screen: 'pending',
      signalling: 'pending',
    });
    const set = (part: Part, ok: boolean) =>
      setOutcomes((o) => ({ ...o, [part]: ok ? 'ok' : 'failed' }));
    const media = navigator.mediaDevices;
    // One after the other: a browser asks for each permission in turn.
    set('camera', await tried(() => media.getUserMedia({ video: true })));
    set('microphone', await tried(() => media.getUserMedia({ audio: true })));
    set('screen', await tried(() => media.getDisplayMedia({ video: true })));
    // mqtt.js comes with the check, not with the request's page.
    const { checkSignalling } = await import('./signalling');
    set('signalling', await checkSignalling(props.who));
  };
  const failure = (part: Part) => {
    switch (part) {
      case 'camera':
        return i18n._(CAMERA_FAILED);
      case 'microphone':
        return i18n._(MICROPHONE_FAILED);
      case 'screen':
        return translateServerText(i18n, CALL_TEXTS.noScreen);
      case 'signalling':
        return translateServerText(i18n, CALL_TEXTS.noSignalling);
    }
  };
  return (
    <Stack gap="xs" data-testid="pre-call-check">
      <Group>
        <Button variant="light" size="compact-sm" onClick={() => void run()}>
          <Trans>Run the check</Trans>
        </Button>
      </Group>
      <List spacing={4} listStyleType="none" aria-live="polite">
        {PARTS.map((part) => {
          const outcome = outcomes[part];
          return (
            <List.Item
              key={part}
              data-testid={`pre-call-${part}`}
              data-outcome={outcome ?? 'untested'}
              icon={
                <ThemeIcon
                  size="sm"
                  radius="xl"
                  color={outcome === 'ok' ? 'teal' : outcome === 'failed' ? 'red' : 'gray'}
                  aria-hidden
                >
                  {outcome === 'ok' ? '✓' : outcome === 'failed' ? '✗' : '·'}
                </ThemeIcon>
              }
            >
              <Text size="sm">
                {i18n._(PART_WORDS[part])}
                {': '}
                {outcome === undefined ? (
                  <Trans>not tested</Trans>
                ) : outcome === 'pending' ? (
                  <Trans>testing…</Trans>
                ) : outcome === 'ok' ? (
                  <Trans>works</Trans>
                ) : (
                  failure(part)
                )}
              </Text>
            </List.Item>
          );
        })}
      </List>
    </Stack>
  );
}
