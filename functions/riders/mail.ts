import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { logger } from '../../platform/logger.ts';

/**
 * Sending riders their sign-in codes. In AWS through Amazon SES from the platform's verified
 * sender (`SPOKE_MAIL_FROM`); on this machine there is no mail service, so the local platform
 * (`SPOKE_MAIL=log`) writes the code to its log with the reference the consent page shows, and
 * never the address.
 */

export interface SignInCodeMail {
  to: string;
  code: string;
  /** Shown on the consent page next to "we sent a code", to tell codes apart. */
  reference: string;
  minutesValid: number;
}

export interface MailSender {
  sendSignInCode(mail: SignInCodeMail): Promise<void>;
}

const logMail: MailSender = {
  async sendSignInCode({ code, reference }) {
    logger.info('local mail: sign-in code', { reference, code });
  },
};

let ses: SESv2Client | undefined;

const sesMail: MailSender = {
  async sendSignInCode({ to, code, reference, minutesValid }) {
    const from = process.env.SPOKE_MAIL_FROM;
    if (!from) throw new Error('Environment variable SPOKE_MAIL_FROM is not set');
    ses ??= new SESv2Client({});
    await ses.send(
      new SendEmailCommand({
        FromEmailAddress: from,
        Destination: { ToAddresses: [to] },
        Content: {
          Simple: {
            Subject: { Data: `Your Spoke sign-in code (${reference})` },
            Body: {
              Text: {
                Data: `Your Spoke sign-in code is ${code}. It is valid for ${minutesValid} minutes.\n\nIf you did not try to sign in, ignore this email.`,
              },
            },
          },
        },
      }),
    );
  },
};

export function mailSender(): MailSender {
  return process.env.SPOKE_MAIL === 'log' ? logMail : sesMail;
}
