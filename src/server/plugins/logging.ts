import type { FastifyRequest } from 'fastify';

/** Never log tokens or passwords: headers are redacted, secrets in query strings masked. */
export const logRedact = ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'];

const SECRET_PARAMS = /([?&](?:authorization|token|tk|password|code|state)=)[^&]*/gi;

export function maskUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1***');
}

export const logSerializers = {
  req(request: FastifyRequest) {
    return { method: request.method, url: maskUrl(request.url), remoteAddress: request.ip };
  },
};
