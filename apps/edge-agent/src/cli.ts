#!/usr/bin/env -S node --import tsx
import { parseArgs } from 'node:util';
import { fetchApiVersions } from './index.ts';

const USAGE = `media-edge-agent: the edge server process that ingests files and streams into the cloud.

Usage: media-edge-agent --cloud <url> [--check]

  --cloud <url>   Address of the cloud, e.g. http://localhost:8080
  --check         Check that the cloud answers and which API versions it speaks, then exit
  --help          Show this text
`;

const main = async () => {
  const { values } = parseArgs({
    options: {
      cloud: { type: 'string' },
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
  if (!values.check) {
    process.stdout.write('Ingest is not available in this version of the agent yet; nothing more to do.\n');
  }
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
