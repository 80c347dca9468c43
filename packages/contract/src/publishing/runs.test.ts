import { describe, expect, it } from 'vitest';
import { newButtonBody } from './network.ts';
import type { Phase } from './publishing.ts';
import { PUBLISH_RUN_MESSAGES, publishOptionsNeeded, publishRunPlan, withPublishData } from './runs.ts';

const phaseOf = (processModuleId: string, destinationModuleId: string) => {
  const [phase] = newButtonBody({ name: 'Web', processModuleId, destinationModuleId }).phases as [Phase];
  return phase.phase;
};
const modules = (nodes: { moduleId: string }[]) => nodes.map((node) => node.moduleId);

describe('the run plan of a phase', () => {
  it("runs a new button's process into its destination", () => {
    const plan = publishRunPlan(phaseOf('transcode', 'folder-export'));
    expect(plan.problems).toEqual([]);
    expect(plan.chains.map((chain) => [modules(chain.processes), chain.destination.moduleId])).toEqual([
      [['transcode'], 'folder-export'],
    ]);
    expect(plan.post).toEqual([]);
  });

  it('follows a chain of processes from the source, and runs secondary networks and post nodes', () => {
    const phase = phaseOf('transcode', 'folder-export');
    phase.network.nodes.push(
      { nodeLocalId: 3, moduleId: 'watermark', options: { text: 'Demo' } },
      { nodeLocalId: 4, moduleId: 'webhook', options: { url: 'http://127.0.0.1/hook' } },
      { nodeLocalId: 5, moduleId: 'as-is', options: {} },
      { nodeLocalId: 6, moduleId: 'email-notify', options: { to: 'desk@example.com' } },
    );
    // source → transcode (2) → watermark (3) → folder export (1); source → as-is (5) → webhook (4).
    phase.network.connections = [
      [0, 2],
      [2, 3],
      [3, 1],
      [0, 5],
      [5, 4],
      [1, 6],
    ];
    phase.secondaryNetworks = [{ destinationNode: 4, processNodes: [5] }];
    phase.postNodes = [6];
    const plan = publishRunPlan(phase);
    expect(plan.chains.map((chain) => [modules(chain.processes), chain.destination.moduleId])).toEqual([
      [['transcode', 'watermark'], 'folder-export'],
      [['as-is'], 'webhook'],
    ]);
    expect(modules(plan.post)).toEqual(['email-notify']);
  });

  it('names a destination that nothing feeds, and survives a loop', () => {
    const phase = phaseOf('as-is', 'folder-export');
    phase.network.connections = [[0, 2]];
    expect(publishRunPlan(phase)).toMatchObject({
      chains: [],
      problems: [PUBLISH_RUN_MESSAGES.chainBroken('Export to folder')],
    });
    phase.network.nodes.push({ nodeLocalId: 3, moduleId: 'transcode', options: {} });
    phase.network.connections = [
      [3, 2],
      [2, 3],
      [2, 1],
    ];
    expect(modules(publishRunPlan(phase).chains[0]?.processes ?? [])).toEqual(['transcode', 'as-is']);
  });
});

describe('options a publish must be given', () => {
  it('asks for required text, textarea and select fields the button leaves empty, unless given', () => {
    const phase = phaseOf('watermark', 'folder-export');
    for (const node of phase.network.nodes) if (node.moduleId !== 'source-media') node.options = {};
    expect(publishOptionsNeeded(phase).map((field) => field.name)).toEqual(['text', 'folder']);
    expect(publishOptionsNeeded(phase, { text: 'Live', folder: ' ' }).map((field) => field.name)).toEqual([
      'folder',
    ]);
    expect(publishOptionsNeeded(phase, { text: 'Live', folder: 'out' })).toEqual([]);
  });
  it("asks for the watermark's text only while it has no image", () => {
    const phase = phaseOf('watermark', 'folder-export');
    const watermark = phase.network.nodes.find((node) => node.moduleId === 'watermark');
    if (!watermark) throw new Error('no watermark node');
    for (const options of [{ image: 'none' }, {}, { image: '' }]) {
      watermark.options = options;
      // Asked as a required field: the dialog knows nothing of the image.
      expect(publishOptionsNeeded(phase, { folder: 'out' })).toEqual([
        { name: 'text', type: 'text', label: 'Text', maxLength: 60, required: true },
      ]);
    }
    for (const image of ['button-icon', 'uploaded']) {
      watermark.options = { image };
      // Nor is the icon asked for at publish time (its choices belong to the account): a run says it lacks one.
      expect(publishOptionsNeeded(phase, { folder: 'out' })).toEqual([]);
    }
  });
  it('fills what the button left empty with what was given, never what it set', () => {
    expect(
      withPublishData({ text: '', position: 'top-left' }, { text: 'Live', position: 'bottom-right' }),
    ).toEqual({
      text: 'Live',
      position: 'top-left',
    });
  });
});
