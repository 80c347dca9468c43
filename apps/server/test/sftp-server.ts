import { timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import ssh2, { type Attributes, type AuthContext, type SFTPWrapper } from 'ssh2';

const { STATUS_CODE, flagsToString } = ssh2.utils.sftp;

const same = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/** A file's attributes as SFTP answers them. */
const attributesOf = (stats: fs.Stats) => ({
  mode: stats.mode,
  uid: stats.uid,
  gid: stats.gid,
  size: stats.size,
  atime: Math.floor(stats.atimeMs / 1000),
  mtime: Math.floor(stats.mtimeMs / 1000),
});

/**
 * One SFTP session on `root`: the requests ssh2-sftp-client makes to make a folder, test a path, write a file
 * and rename it, answered from the real file system. The login folder is '/', as on a chrooted server.
 */
const serveSftp = (sftp: SFTPWrapper, root: string) => {
  const remote = (given: string) => path.posix.normalize(path.posix.join('/', given));
  const local = (given: string) => path.join(root, remote(given));
  const handles = new Map<string, { fd: number } | { entries: string[]; folder: string }>();
  let nextHandle = 0;
  const newHandle = (value: { fd: number } | { entries: string[]; folder: string }) => {
    const handle = Buffer.from(String(nextHandle++));
    handles.set(handle.toString(), value);
    return handle;
  };
  /** Runs a request; a file-system error answers its SFTP status instead. */
  const answer = (reqId: number, work: () => void) => {
    try {
      work();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      sftp.status(
        reqId,
        code === 'ENOENT'
          ? STATUS_CODE.NO_SUCH_FILE
          : code === 'EACCES'
            ? STATUS_CODE.PERMISSION_DENIED
            : STATUS_CODE.FAILURE,
        String(error),
      );
    }
  };
  const ok = (reqId: number) => sftp.status(reqId, STATUS_CODE.OK);
  const fileOf = (handle: Buffer) => {
    const open = handles.get(handle.toString());
    if (!open || !('fd' in open)) throw new Error('bad handle');
    return open.fd;
  };
  sftp
    .on('REALPATH', (reqId, given) =>
      sftp.name(reqId, [{ filename: remote(given), longname: remote(given), attrs: {} as Attributes }]),
    )
    .on('STAT', (reqId, given) =>
      answer(reqId, () => sftp.attrs(reqId, attributesOf(fs.statSync(local(given))))),
    )
    .on('LSTAT', (reqId, given) =>
      answer(reqId, () => sftp.attrs(reqId, attributesOf(fs.lstatSync(local(given))))),
    )
    .on('FSTAT', (reqId, handle) =>
      answer(reqId, () => sftp.attrs(reqId, attributesOf(fs.fstatSync(fileOf(handle))))),
    )
    .on('MKDIR', (reqId, given) =>
      answer(reqId, () => {
        fs.mkdirSync(local(given));
        ok(reqId);
      }),
    )
    .on('OPEN', (reqId, given, flags) =>
      answer(reqId, () =>
        sftp.handle(reqId, newHandle({ fd: fs.openSync(local(given), flagsToString(flags) ?? 'r') })),
      ),
    )
    .on('WRITE', (reqId, handle, offset, data) =>
      answer(reqId, () => {
        fs.writeSync(fileOf(handle), data, 0, data.length, offset);
        ok(reqId);
      }),
    )
    .on('FSETSTAT', (reqId) => ok(reqId))
    .on('CLOSE', (reqId, handle) =>
      answer(reqId, () => {
        const open = handles.get(handle.toString());
        handles.delete(handle.toString());
        if (open && 'fd' in open) fs.closeSync(open.fd);
        ok(reqId);
      }),
    )
    .on('OPENDIR', (reqId, given) =>
      answer(reqId, () =>
        sftp.handle(reqId, newHandle({ entries: fs.readdirSync(local(given)), folder: local(given) })),
      ),
    )
    .on('READDIR', (reqId, handle) =>
      answer(reqId, () => {
        const open = handles.get(handle.toString());
        if (!open || !('entries' in open)) throw new Error('bad handle');
        if (open.entries.length === 0) return sftp.status(reqId, STATUS_CODE.EOF);
        const names = open.entries.splice(0).map((filename) => {
          const attrs = attributesOf(fs.lstatSync(path.join(open.folder, filename)));
          return { filename, longname: filename, attrs };
        });
        sftp.name(reqId, names);
      }),
    )
    .on('RENAME', (reqId, from, to) =>
      answer(reqId, () => {
        // SFTP version 3: renaming onto an existing file is an error, never an overwrite.
        if (fs.existsSync(local(to))) return sftp.status(reqId, STATUS_CODE.FAILURE, 'exists');
        fs.renameSync(local(from), local(to));
        ok(reqId);
      }),
    );
};

/**
 * An ed25519 key pair ssh2 can read back: its generator drops a leading zero byte of the key about once in
 * 256 keys and then refuses what it made (mscdex/ssh2 issues 1390, 1513), so such a pair is made again.
 */
export const ed25519KeyPair = () => {
  for (;;) {
    const pair = ssh2.utils.generateKeyPairSync('ed25519');
    if (
      !(ssh2.utils.parseKey(pair.private) instanceof Error) &&
      !(ssh2.utils.parseKey(pair.public) instanceof Error)
    )
      return pair;
  }
};

/**
 * A real SSH server (ssh2) on 127.0.0.1 whose sftp subsystem serves `root`, for one user who logs in with
 * `password` or with the private key of `publicKey` (OpenSSH format). `logins` counts the sessions that
 * tried to log in, accepted or not.
 */
export const startSftpServer = async (options: {
  root: string;
  username: string;
  password: string;
  publicKey: string;
}) => {
  const allowed = ssh2.utils.parseKey(options.publicKey);
  if (allowed instanceof Error) throw allowed;
  const hostKey = ed25519KeyPair().private;
  const logins = { tried: 0, accepted: 0 };
  const checks = (context: AuthContext) => {
    if (context.username !== options.username) return false;
    if (context.method === 'password')
      return same(Buffer.from(context.password), Buffer.from(options.password));
    if (context.method === 'publickey')
      return (
        context.key.algo === allowed.type &&
        same(context.key.data, allowed.getPublicSSH()) &&
        (!context.signature || allowed.verify(context.blob as Buffer, context.signature, context.hashAlgo))
      );
    return false;
  };
  const server = new ssh2.Server({ hostKeys: [hostKey] }, (client) => {
    logins.tried++;
    client.on('error', () => undefined);
    client.on('authentication', (context) => {
      if (!checks(context)) return context.reject(['password', 'publickey']);
      if (context.method !== 'publickey' || context.signature) logins.accepted++;
      context.accept();
    });
    client.on('ready', () =>
      client.on('session', (accept) =>
        accept().on('sftp', (acceptSftp) => serveSftp(acceptSftp(), options.root)),
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    port,
    logins,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
