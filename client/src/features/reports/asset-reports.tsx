import { lazy, Suspense } from 'react';

/* The section (its table and form) is a chunk of its own: the asset's page shows without it. */
const Section = lazy(() =>
  import('./asset-reports-section').then((m) => ({ default: m.AssetReportsSection })),
);

/** The asset page's Reports section (issue 31), loaded after the page. */
export function AssetReports(props: { readonly assetId: string }) {
  return (
    <Suspense fallback={null}>
      <Section assetId={props.assetId} />
    </Suspense>
  );
}
