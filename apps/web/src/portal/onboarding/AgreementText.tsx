import { List, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The agreement's Markdown as the dealer reads it: headings, bullet lists and paragraphs (the
 * subset the owner's texts use), as plain text nodes: nothing in the text becomes HTML.
 */
export function AgreementText({ text }: { text: string }) {
  const blocks: ReactNode[] = [];
  let bullets: string[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) blocks.push(<Text key={`p${blocks.length}`}>{para.join(' ')}</Text>);
    if (bullets.length) {
      blocks.push(
        <List key={`l${blocks.length}`} spacing={4}>
          {bullets.map((b, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is static text
            <List.Item key={i}>{b}</List.Item>
          ))}
        </List>,
      );
    }
    para = [];
    bullets = [];
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^[-*]\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const level = Math.min(heading[1]!.length + 1, 5) as 2 | 3 | 4 | 5;
      blocks.push(
        <Title key={`h${blocks.length}`} order={level} size={level === 2 ? 'h3' : 'h5'}>
          {heading[2]}
        </Title>,
      );
    } else if (bullet) {
      if (para.length) flush();
      bullets.push(bullet[1]!);
    } else if (line === '') {
      flush();
    } else {
      if (bullets.length) flush();
      para.push(line);
    }
  }
  flush();
  return <Stack gap="xs">{blocks}</Stack>;
}
