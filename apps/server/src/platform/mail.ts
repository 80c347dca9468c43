import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from './config.ts';
import { randomToken } from './crypto.ts';

export type MailMessage = { to: string; subject: string; text: string; html?: string };

export type Mailer = { send: (message: MailMessage) => Promise<void> };

/**
 * The one way mail leaves the product: SMTP when SMTP_URL is set, else an .eml file per message under
 * DATA_DIR/mail, so that nothing is lost on a machine without a mail server.
 */
export const createMailer = (
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>,
  log: FastifyBaseLogger,
): Mailer => {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      send: async (message) => {
        await transport.sendMail({ from: config.mailFrom, ...message });
        log.info({ subject: message.subject }, 'mail sent');
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const folder = path.join(config.dataDir, 'mail');
  return {
    send: async (message) => {
      const info = await transport.sendMail({ from: config.mailFrom, ...message });
      await fs.mkdir(folder, { recursive: true });
      const file = path.join(
        folder,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomToken(6)}.eml`,
      );
      const temporary = `${file}.tmp`;
      await fs.writeFile(temporary, info.message as Buffer);
      await fs.rename(temporary, file);
      log.info({ subject: message.subject, file: path.basename(file) }, 'mail written to file');
    },
  };
};
