import { Anchor, Group, Paper, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** Keeps a section's title clear of the fixed header when a link or a reload jumps to it. */
export const HEADER_CLEARANCE = 72;

/** A titled part of a settings page; `id` is what `element_id_to_jump_to` and in-page links point at. */
export const Section = ({ title, id, children }: { title: string; id: string; children: ReactNode }) => (
  <Paper
    withBorder
    p="md"
    component="section"
    id={id}
    aria-labelledby={`${id}-title`}
    style={{ scrollMarginTop: HEADER_CLEARANCE }}
  >
    <Title order={3} id={`${id}-title`} mb="sm">
      {title}
    </Title>
    {children}
  </Paper>
);

/** The sections of a long page as links, so one can go straight to the part one came for. */
export const SectionLinks = ({ sections }: { sections: { id: string; title: string }[] }) => (
  <Group component="nav" aria-label="On this page" gap="xs" wrap="wrap">
    <Text size="sm" c="dimmed">
      On this page:
    </Text>
    {sections.map((section) => (
      <Anchor key={section.id} href={`#${section.id}`} size="sm">
        {section.title}
      </Anchor>
    ))}
  </Group>
);
