/** One mail as QE sends it: plain text, one recipient. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface MailSender {
  /** connects and logs in without sending: a server that is down, refuses the login or fails TLS throws here */
  verify(): Promise<void>;
  send(message: MailMessage): Promise<void>;
  close(): void;
}
