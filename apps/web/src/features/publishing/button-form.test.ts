import { newButtonBody, PUBLISH_MESSAGES, PUBLISH_MODULES, type PublishButton } from '@media/contract';
import { describe, expect, it } from 'vitest';
import {
  bodyOf,
  byName,
  formOf,
  missingOptions,
  nameError,
  primaryNetwork,
  restrictionsFor,
  simpleNodes,
  withNetwork,
  withNodeModule,
  withNodeOptions,
} from './button-form.ts';

const body = newButtonBody({
  name: 'Web',
  processModuleId: 'transcode',
  destinationModuleId: 'folder-export',
});
const { name: _name, enabled: _enabled, ...form } = body;
const saved: PublishButton = {
  ...body,
  id: 7,
  accountId: 1,
  siteId: null,
  complicated: false,
  bad: false,
  problems: [],
  createdAt: '2026-11-23T00:00:00Z',
};

describe('publishing button form', () => {
  it('never sends the transient or server-only fields', () => {
    const sent = bodyOf(' Web ', false, { ...formOf(saved), deleting: true } as never);
    expect(Object.keys(sent).sort()).toEqual(
      ['description', 'enabled', 'iconId', 'keepFor', 'location', 'name', 'phases', 'restrictions'].sort(),
    );
    expect(sent.name).toBe('Web');
    expect(sent.enabled).toBe(false);
  });

  it('sorts buttons by name and checks the name', () => {
    expect(byName([{ name: 'b' }, { name: 'A' }]).map((b) => b.name)).toEqual(['A', 'b']);
    expect(nameError('  ')).toBe(PUBLISH_MESSAGES.required);
    expect(nameError('x'.repeat(101))).toBe(PUBLISH_MESSAGES.nameTooLong);
    expect(nameError('Web')).toBeUndefined();
  });

  it('sees a new button as source → process → destination, and a changed network as not', () => {
    const simple = simpleNodes(form, PUBLISH_MODULES);
    expect(simple?.process.moduleId).toBe('transcode');
    expect(simple?.destination.moduleId).toBe('folder-export');
    const network = primaryNetwork(form);
    const more = withNetwork(
      form,
      { ...network, nodes: [...network.nodes, { nodeLocalId: 3, moduleId: 'watermark', options: {} }] },
      PUBLISH_MODULES,
    );
    expect(simpleNodes(more, PUBLISH_MODULES)).toBeNull();
    expect(more.phases[0]?.phase.primaryNetwork.processNodes).toEqual([2, 3]);
  });

  it('changes a node module with its default options, and lists required options left empty', () => {
    expect(missingOptions(form, PUBLISH_MODULES)).toEqual(['Export to folder: Folder']);
    const filled = withNodeOptions(form, 1, { folder: '/out' }, PUBLISH_MODULES);
    expect(missingOptions(filled, PUBLISH_MODULES)).toEqual([]);
    const watermark = withNodeModule(filled, 2, 'watermark', PUBLISH_MODULES);
    expect(primaryNetwork(watermark).nodes.find((n) => n.nodeLocalId === 2)?.options).toEqual({
      position: 'bottom-right',
      image: 'none',
    });
    expect(missingOptions(watermark, PUBLISH_MODULES)).toEqual(['Watermark: Text']);
    // With an image the text may stay empty; an uploaded image needs its icon chosen.
    const withIcon = withNodeOptions(
      watermark,
      2,
      { position: 'top-left', image: 'button-icon' },
      PUBLISH_MODULES,
    );
    expect(missingOptions(withIcon, PUBLISH_MODULES)).toEqual([]);
    const uploaded = withNodeOptions(
      watermark,
      2,
      { position: 'top-left', image: 'uploaded' },
      PUBLISH_MODULES,
    );
    expect(missingOptions(uploaded, PUBLISH_MODULES)).toEqual(['Watermark: Icon']);
  });

  it('allows every role unless a restriction says otherwise', () => {
    const roles = [
      { id: 1, name: 'Editor' },
      { id: 2, name: 'Viewer' },
    ];
    expect(restrictionsFor(roles, [])).toEqual([
      { roleId: 1, roleName: 'Editor', allow: true },
      { roleId: 2, roleName: 'Viewer', allow: true },
    ]);
    expect(restrictionsFor(roles, [{ roleId: 2, roleName: 'Viewer', allow: false }])[1]?.allow).toBe(false);
  });
});

describe('publishing button select values', () => {
  it('maps keep-for choices and locations to select values and back', async () => {
    const { keepForOf, keepForValue, locationOf, locationValue, locationSelectData } = await import(
      './ButtonFields.tsx'
    );
    expect(keepForOf(keepForValue(null))).toBeNull();
    expect(keepForOf(keepForValue(7 * 86_400))).toBe(7 * 86_400);
    expect(locationOf(locationValue({ type: 'cloud', id: null }))).toEqual({ type: 'cloud', id: null });
    expect(locationOf(locationValue({ type: 'edge', id: 4 }))).toEqual({ type: 'edge', id: 4 });
    const cloud = { type: 'cloud' as const, id: null, name: 'Cloud', available: true, modules: {} };
    expect(locationSelectData([cloud], { type: 'edge', id: 9 })).toEqual([
      { value: 'cloud:', label: 'Cloud' },
      { value: 'edge:9', label: 'Unknown location (edge:9)' },
    ]);
  });
});
