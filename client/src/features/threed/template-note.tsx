import './catalogues';
import { Plural, Trans } from '@lingui/react/macro';
import { Text } from '@mantine/core';

/**
 * What "Create asset" of a template brings of the 3D area (issue 32 item 7): its processed models
 * and its scenes with their hotspots. Loaded with the dialog when the template has any, so its
 * text is in the 3D area's catalogue, not in every first visit's.
 */
export function TemplateThreedNote(props: { readonly models: number; readonly scenes: number }) {
  const { models: modelTotal, scenes: sceneTotal } = props;
  return (
    <Text size="sm" c="dimmed" data-testid="template-threed-count">
      <Trans>
        And the template's <Plural value={modelTotal} one="# 3D model" other="# 3D models" /> and{' '}
        <Plural value={sceneTotal} one="# scene" other="# scenes" /> with their hotspots.
      </Trans>
    </Text>
  );
}
