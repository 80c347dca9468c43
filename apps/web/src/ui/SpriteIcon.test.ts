import fs from 'node:fs';
import path from 'node:path';
import { MantineProvider } from '@mantine/core';
import { iconBankGraphics, NODE_TYPES } from '@media/contract';
import { createElement, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NodeIcon } from '../features/media/NodeIcon.tsx';
import { iconBankState, iconView, loadIconBank, reportIconProblem, resetIconBanks } from './icon-banks.ts';
import { SpriteIcon } from './SpriteIcon.tsx';

const PUBLIC_IMG = path.join(import.meta.dirname, '../../public/furniture/img');
const bankFile = (bank: string) => fs.readFileSync(path.join(PUBLIC_IMG, `${bank}-svgIcons.svg`), 'utf8');

/** A fetch of the built web app's public folder, counting its calls. */
const servePublic = () =>
  vi.fn(async (url: string) => {
    const file = path.join(PUBLIC_IMG, path.basename(url));
    const found = url.startsWith('/furniture/img/') && fs.existsSync(file);
    return {
      ok: found,
      status: found ? 200 : 404,
      text: async () => (found ? fs.readFileSync(file, 'utf8') : ''),
    };
  });

const render = (element: ReactElement) => renderToString(createElement(MantineProvider, null, element));

afterEach(() => resetIconBanks());

describe('icon sprite banks', () => {
  it('has a graphic for every node type in the media bank, and a ui bank', () => {
    expect(iconBankGraphics(bankFile('media'))).toEqual(expect.arrayContaining([...NODE_TYPES]));
    expect(iconBankGraphics(bankFile('ui')).length).toBeGreaterThan(0);
    for (const name of fs.readdirSync(PUBLIC_IMG)) expect(name).toMatch(/^[A-Za-z0-9_-]+-svgIcons\.svg$/);
  });

  it('loads a bank once however many icons ask for it', async () => {
    const fetchFile = servePublic();
    const [first, second] = await Promise.all([
      loadIconBank('media', fetchFile),
      loadIconBank('media', fetchFile),
    ]);
    await loadIconBank('media', fetchFile);
    expect(fetchFile).toHaveBeenCalledTimes(1);
    expect(first).toBe(second);
    expect(iconBankState('media').status).toBe('ready');
  });

  it("draws a known graphic with <use> from the bank's sprite file", async () => {
    await loadIconBank('media', servePublic());
    const html = render(createElement(NodeIcon, { type: 'folder', size: 24 }));
    expect(html).toContain('<use href="/furniture/img/media-svgIcons.svg#folder"></use>');
    expect(html).not.toContain('data-icon-fallback');
  });

  it("shows the fallback and 'Could not find icon …' for a graphic the bank does not have", async () => {
    const state = await loadIconBank('media', servePublic());
    const view = iconView(state, 'media', 'gear');
    expect(view).toEqual({ kind: 'missing', alert: "Could not find icon 'gear' from icon bank 'media'" });
    const html = render(createElement(SpriteIcon, { bank: 'media', graphic: 'gear' }));
    expect(html).toContain('data-icon-fallback="media#gear"');
    expect(html).not.toContain('<use');
  });

  it("shows the fallback and 'Error: …' when the bank does not load", async () => {
    const state = await loadIconBank('nowhere', servePublic());
    expect(iconView(state, 'nowhere', 'folder')).toEqual({
      kind: 'failed',
      alert: "Error: Icon bank 'nowhere' could not be loaded (HTTP 404)",
    });
    const offline = await loadIconBank('offline', async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(offline).toEqual({ status: 'failed', error: 'Error: Failed to fetch' });
    expect(render(createElement(SpriteIcon, { bank: 'nowhere', graphic: 'folder' }))).toContain(
      'data-icon-fallback="nowhere#folder"',
    );
  });

  it('raises the alert and logs an unknown name once, however many icons draw it', async () => {
    const state = await loadIconBank('media', servePublic());
    const raise = vi.fn();
    const log = vi.fn();
    for (let i = 0; i < 3; i++)
      reportIconProblem(iconView(state, 'media', 'gear'), 'media', 'gear', raise, log);
    reportIconProblem(iconView(state, 'media', 'cog'), 'media', 'cog', raise, log);
    reportIconProblem(iconView(state, 'media', 'folder'), 'media', 'folder', raise, log);
    expect(raise.mock.calls).toEqual([
      ["Could not find icon 'gear' from icon bank 'media'"],
      ["Could not find icon 'cog' from icon bank 'media'"],
    ]);
    expect(log).toHaveBeenCalledTimes(2);
    expect(log).toHaveBeenCalledWith("Unknown icon 'gear' in icon bank 'media'");
  });
});
