import { msg } from '@lingui/core/macro';
import { area, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';

const QrPage = lazyPage(() => import('./qr-page'), 'QrPage');
const QrScanPage = lazyPage(() => import('./qr-scan-page'), 'QrScanPage');
const QrLabelsPage = lazyPage(() => import('./qr-labels-page'), 'QrLabelsPage');

/** QR codes: the codes, the scanner, the labels. */
export const qrArea: AreaDefinition = {
  app: (app) => [
    area(app, 'qr', msg`QR codes`, {
      component: () => <QrPage />,
      children: (p) => [
        area(p, 'scan', msg`Scan`, { component: () => <QrScanPage /> }),
        area(p, 'details', msg`QR code labels`, { component: () => <QrLabelsPage /> }),
      ],
    }),
  ],
};
