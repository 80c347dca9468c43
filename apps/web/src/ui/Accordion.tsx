import { Accordion as MantineAccordion } from '@mantine/core';
import type { ReactNode } from 'react';

export type AccordionPanel = { id: string; title: ReactNode; content: ReactNode };

/** One panel open at a time; the active panel opens first (spec3 §4). */
export const Accordion = ({ panels, active }: { panels: AccordionPanel[]; active?: string }) => (
  <MantineAccordion defaultValue={active ?? panels[0]?.id ?? null} variant="separated">
    {panels.map((panel) => (
      <MantineAccordion.Item key={panel.id} value={panel.id}>
        <MantineAccordion.Control>{panel.title}</MantineAccordion.Control>
        <MantineAccordion.Panel>{panel.content}</MantineAccordion.Panel>
      </MantineAccordion.Item>
    ))}
  </MantineAccordion>
);
