import { lazy, Suspense } from 'react';

/* The section (its list and form) is a chunk of its own: the asset's page shows without it. */
const Section = lazy(() =>
  import('./asset-diagrams-section').then((m) => ({ default: m.AssetDiagramsSection })),
);

/** The asset page's "Diagrams" section (issue 37 item 4), loaded after the page. */
export function AssetDiagrams(props: { readonly assetId: string }) {
  return (
    <Suspense fallback={null}>
      <Section assetId={props.assetId} />
    </Suspense>
  );
}
