import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A PDF's text as Debian's poppler-utils read it (`pdftotext`, a test prerequisite). */
export function pdfText(bytes: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-text-'));
  try {
    const file = path.join(dir, 'in.pdf');
    fs.writeFileSync(file, bytes);
    return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** How many pages a PDF has (`pdfinfo`, of the same package). */
export function pdfPages(bytes: Buffer): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-info-'));
  try {
    const file = path.join(dir, 'in.pdf');
    fs.writeFileSync(file, bytes);
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? '0');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The attachments of a raw MIME mail (as nodemailer writes them: base64 parts), by type. */
export function mailAttachments(raw: string): { type: string; name: string; bytes: Buffer }[] {
  const out: { type: string; name: string; bytes: Buffer }[] = [];
  const boundaries = [...raw.matchAll(/boundary="?([^"\r\n;]+)"?/g)].map((m) => m[1] ?? '');
  for (const boundary of boundaries) {
    for (const part of raw.split(`--${boundary}`)) {
      const split = part.search(/\r?\n\r?\n/);
      if (split < 0) continue;
      const head = part.slice(0, split);
      const type = /^Content-Type:\s*([^;\r\n]+)/im.exec(head)?.[1]?.trim().toLowerCase();
      if (type === undefined || !/Content-Disposition:\s*attachment/i.test(head)) continue;
      const name = /filename="?([^"\r\n;]+)"?/i.exec(head)?.[1] ?? '';
      const body = part.slice(split).replace(/\s+/g, '');
      out.push({ type, name, bytes: Buffer.from(body, 'base64') });
    }
  }
  return out;
}
