#!/usr/bin/env -S node --import tsx
import { parseArgs } from 'node:util';
import { AGENT_VERSION, EdgeAgent } from './agent.ts';
import { fetchApiVersions } from './cloud.ts';

const USAGE = `media-edge-agent ${AGENT_VERSION}: the edge server process that ingests files into the cloud
and carries out the publishes of buttons that run on this edge server.

Usage: EDGE_TOKEN=<token> media-edge-agent --cloud <url> [--root <folder>]... [--check]

  --cloud <url>     Address of the cloud, e.g. http://localhost:8080
  --root <folder>   A folder the agent may read (repeatable); endpoints pointing elsewhere are refused.
                    Without --root the agent reads any folder an endpoint names.
  --state <folder>  The agent's own folder: work files and unfinished uploads, kept across restarts
                    (default: media-edge-agent in the system's temporary folder)
  --exports-dir <folder>
                    Where publishes export to folders (a button's Folder option is a sub-folder of it)
                    (default: exports in the state folder)
  --check           Check that the cloud answers and which API versions it speaks, then exit
  --help            Show this text

  EDGE_TOKEN        The edge server's token, shown once when the edge server was created
                    (an environment variable, so that it does not show in the process list).
`;

const main = async () => {
  const { values } = parseArgs({
    options: {
      cloud: { type: 'string' },
      root: { type: 'string', multiple: true, default: [] },
      state: { type: 'string' },
      'exports-dir': { type: 'string' },
      check: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !values.cloud) {
    process.stdout.write(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const versions = await fetchApiVersions({ cloudUrl: values.cloud });
  process.stdout.write(`Cloud ${values.cloud} speaks API versions ${versions.supported.join(', ')}\n`);
  if (values.check) return;
  const token = process.env.EDGE_TOKEN;
  if (!token) {
    process.stderr.write('EDGE_TOKEN is not set: give the edge server token shown when it was created.\n');
    process.exit(2);
  }
  const agent = new EdgeAgent({
    cloudUrl: values.cloud,
    token,
    allowedRoots: values.root,
    stateDir: values.state,
    exportsDir: values['exports-dir'],
    log: (level, message) => process.stderr.write(`${new Date().toISOString()} ${level} ${message}\n`),
  });
  agent.start();
  process.stdout.write('Edge agent running; Ctrl+C stops it.\n');
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void agent.stop().then(() => process.exit(0)));
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
