import PDFDocument from 'pdfkit';

/**
 * The PDF copy of a signed agreement (pdfkit, decision 0951): the Markdown text as it was signed
 * (headings, bullets, paragraphs; inline marks shown as typed) and the signature record under it.
 * Made from the stored record whenever asked, so the copy emailed and every later download agree.
 */

export interface SignedAgreement {
  tier: string;
  version: number;
  text: string;
  textSha256: string;
  signatureName: string;
  signedAt: Date;
  ipAddress: string;
  userAgent: string | null;
  fullName: string;
  email: string;
  companyName: string | null;
}

export function agreementPdf(s: SignedAgreement): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: 60,
    info: { Title: `${s.tier} Dealer Agreement v${s.version}`, Author: 'Dealer Network', Subject: s.fullName },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  for (const raw of s.text.split('\n')) {
    const line = raw.trimEnd();
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const size = heading[1]!.length === 1 ? 18 : heading[1]!.length === 2 ? 14 : 12;
      doc.moveDown(0.5).font('Helvetica-Bold').fontSize(size).text(heading[2]!);
      doc.moveDown(0.3);
    } else if (/^\s*[-*]\s+/.test(line)) {
      doc
        .font('Helvetica')
        .fontSize(11)
        .text(`•  ${line.replace(/^\s*[-*]\s+/, '')}`, { indent: 12 });
    } else if (line === '') {
      doc.moveDown(0.5);
    } else {
      doc.font('Helvetica').fontSize(11).text(line);
    }
  }

  doc.moveDown(2).font('Helvetica-Bold').fontSize(13).text('Electronic signature');
  doc.moveDown(0.3).font('Helvetica').fontSize(10);
  const rows: [string, string][] = [
    [
      'Signed by',
      `${s.signatureName} (account: ${s.fullName}, ${s.email}${s.companyName ? `, ${s.companyName}` : ''})`,
    ],
    ['Signed at', `${s.signedAt.toISOString().replace('T', ' ').slice(0, 19)} UTC`],
    ['Agreement', `${s.tier} Dealer Agreement, version ${s.version}`],
    ['Text SHA-256', s.textSha256],
    ['IP address', s.ipAddress],
    ['User agent', s.userAgent ?? 'not sent'],
  ];
  for (const [k, v] of rows) doc.font('Helvetica-Bold').text(`${k}: `, { continued: true }).font('Helvetica').text(v);
  doc.end();
  return done;
}

export const agreementPdfName = (s: { tier: string; version: number }) =>
  `dealer-agreement-${s.tier.toLowerCase()}-v${s.version}.pdf`;
