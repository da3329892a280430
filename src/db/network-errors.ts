// The connection failures every driver reports the same way, as one line each.

/** One line for a socket-level failure, or undefined when the code is not one of them. */
export function networkErrorMessage(code: string | undefined, where: string, socket: string | undefined, product: string): string | undefined {
  switch (code) {
    case 'ECONNREFUSED':
      return `connection refused by ${where}: is the server running and listening there?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `unknown host in ${where}`;
    case 'ENOENT':
      return `no ${product} socket at ${socket}`;
    case 'ETIMEDOUT':
      return `connecting to ${where} timed out`;
    default:
      return undefined;
  }
}
