import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { sha256 } from '../lib/crypto';
import { isTrue } from '../db/database';
import type { App, AppContext } from '../context';
import { tokenAuthenticator } from '../services/auth-token.service';
import { ACCOUNT_LOCKED_MESSAGE } from '../services/auth.service';
import { VIEWER_CLOSE_CODES } from '@spyglass/protocol';
import type { ViewerHub } from './viewer-hub';

/** Takes over an upgrade request on `/ws` whose `type` query parameter named this handler. */
export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer, url: URL) => void;

/** The most a viewer may send in one message: pings, subscriptions and signalling are small. */
const VIEWER_MAX_PAYLOAD = 64 * 1024;

/**
 * Serves the live channel `/ws?type=viewer|device` on the server's own upgrade event, outside
 * Fastify's request pipeline: the query carries the viewer's token (spec 000 §4.6), and nothing
 * on this path logs the URL, so the token stays out of the logs.
 */
export function registerWebSocketUpgrades(app: App, handlers: Record<string, UpgradeHandler>): void {
  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    let url: URL;
    try {
      url = new URL(request.url ?? '/', 'http://localhost');
    } catch {
      rejectUpgrade(socket, 400, 'Bad Request');
      return;
    }
    if (url.pathname !== '/ws') {
      rejectUpgrade(socket, 404, 'Not Found');
      return;
    }
    const type = url.searchParams.get('type') ?? '';
    const handler = Object.hasOwn(handlers, type) ? handlers[type] : undefined;
    if (!handler) {
      rejectUpgrade(socket, 400, 'Bad Request');
      return;
    }
    handler(request, socket, head, url);
  });
}

/** Viewers authenticate with the sign-in token in the query and join the hub of their account. */
export function viewerUpgradeHandler(ctx: AppContext, hub: ViewerHub): { handler: UpgradeHandler; close(): void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: VIEWER_MAX_PAYLOAD, perMessageDeflate: false });
  const authenticate = tokenAuthenticator(ctx);
  const handler: UpgradeHandler = (request, socket, head, url) => {
    const token = url.searchParams.get('token');
    const tokenHash = token ? sha256(token) : null;
    const findUser = () => (tokenHash ? authenticate(tokenHash) : Promise.resolve(undefined));
    const stillAuthorized = async () => {
      const user = await findUser();
      return user !== undefined && !isTrue(user.is_locked);
    };
    findUser().then(
      (user) => {
        if (socket.destroyed) return;
        // The upgrade completes even for a bad token, so that the browser sees why in the close frame.
        wss.handleUpgrade(request, socket, head, (ws) => {
          if (!user) ws.close(VIEWER_CLOSE_CODES.unauthorized, 'Unauthorized');
          else if (isTrue(user.is_locked)) ws.close(VIEWER_CLOSE_CODES.locked, ACCOUNT_LOCKED_MESSAGE);
          else void hub.attach(ws, { userId: user.id, stillAuthorized, transport: socket });
        });
      },
      () => rejectUpgrade(socket, 503, 'Service Unavailable'),
    );
  };
  return {
    handler,
    close: () => {
      hub.close();
      wss.close();
    },
  };
}

function rejectUpgrade(socket: Duplex, status: number, text: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`, () => socket.destroy());
}
