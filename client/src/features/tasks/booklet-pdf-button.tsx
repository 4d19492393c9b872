import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Text } from '@mantine/core';
import { apiPaths, LANGUAGES, type BookletKind, type Language } from '@plant/shared-schema';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { saveBlob } from '../../sync/download-file';
import { syncWorker } from '../../sync/worker';

/** The reader's time zone, as the PDF writes its times ('UTC' when the browser names none). */
function timeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * The service booklet's "Export PDF" (issue 37 item 3): the server draws the booklet (GET
 * assets/{id}/servicebooklet.pdf, each kind only where the reader may view it) with the kinds the
 * page shows, in the app's language and the reader's time zone; the browser saves it. The PDF is
 * made on the server, so offline the button says it needs the network.
 */
export function BookletPdfButton(props: {
  readonly assetId: string;
  readonly assetName: string;
  readonly kinds: readonly BookletKind[];
}) {
  const { t, i18n } = useLingui();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const lang: Language = (LANGUAGES as readonly string[]).includes(i18n.locale)
    ? (i18n.locale as Language)
    : 'en';

  const exportPdf = async () => {
    setBusy(true);
    const answer = await syncWorker().http.call(
      'GET',
      apiPaths.serviceBookletPdf(props.assetId, { kinds: props.kinds, lang, tz: timeZone() }),
      undefined,
      { binary: true, quiet: true },
    );
    setBusy(false);
    if ('error' in answer) {
      setProblem(
        answer.error.kind === 'network'
          ? t`The PDF export needs the network: the server draws it.`
          : translateServerText(i18n, callErrorText(answer.error)),
      );
      return;
    }
    setProblem(null);
    saveBlob(answer.data as Blob, t`Service booklet ${props.assetName}.pdf`);
  };

  return (
    <>
      <Button
        variant="default"
        loading={busy}
        disabled={props.kinds.length === 0}
        onClick={() => void exportPdf()}
        data-testid="booklet-pdf"
      >
        <Trans>Export PDF</Trans>
      </Button>
      {problem === null ? null : (
        <Text c="red" size="sm" role="alert" data-testid="booklet-pdf-problem">
          {problem}
        </Text>
      )}
    </>
  );
}
