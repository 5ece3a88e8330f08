import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { mkdir } from 'node:fs/promises';
import dynalite from 'dynalite';
import S3rver from 's3rver';
import { transactionProxy, type RequestListener } from './dynamo-transactions.ts';
import { answerOnlyLocalRequests } from './local-requests.ts';

/** Starting the protocol servers the local platform runs on, with clear messages for taken ports. */

export class PortInUseError extends Error {
  constructor(readonly port: number, readonly service: string, readonly envVar: string) {
    super(`Port ${port} for ${service} is already in use. Stop the process using it, or choose another port with ${envVar}=<port> (0 picks a free one).`);
    this.name = 'PortInUseError';
  }
}

export interface ListenTarget {
  port: number;
  host: string;
  service: string;
  envVar: string;
}

export async function listen(server: Server, target: ListenTarget): Promise<number> {
  server.listen(target.port, target.host);
  try {
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error))]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUseError(target.port, target.service, target.envVar);
    throw error;
  }
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error(`${target.service} has no TCP address`);
  return address.port;
}

export async function closeServer(server: Server): Promise<void> {
  if (!server.listening) return;
  server.closeAllConnections?.();
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

/**
 * dynalite persisting under `directory`, so a restart keeps keys, riders and reports, behind the
 * proxy that adds `TransactWriteItems` (dynamo-transactions.ts). The endpoint the functions use is
 * the proxy's, which calls dynalite's request listener in process; dynalite also listens on a
 * loopback port of its own, for the steps of transactions. `listener` is the endpoint's request
 * listener, for callers in this process (dynamo-in-process.ts). `close` stops both.
 */
export async function startDynamo(directory: string, target: ListenTarget): Promise<{ port: number; listener: RequestListener; close(): Promise<void> }> {
  await mkdir(directory, { recursive: true });
  const store = dynalite({ path: directory, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 }) as Server;
  answerOnlyLocalRequests(store, { pagesOfAnyOrigin: false });
  const storePort = await listen(store, { ...target, port: 0, host: '127.0.0.1' });
  const [storeListener] = store.listeners('request') as RequestListener[];
  if (!storeListener) throw new Error('dynalite\'s server has no request listener to call in process');
  const proxy = transactionProxy({ host: '127.0.0.1', port: storePort }, storeListener);
  const server = createServer(proxy.listener);
  answerOnlyLocalRequests(server, { pagesOfAnyOrigin: false });
  let port: number;
  try {
    port = await listen(server, target);
  } catch (error) {
    proxy.close();
    await closeServer(store);
    throw error;
  }
  return {
    port,
    listener: proxy.listener,
    close: async () => {
      await closeServer(server);
      proxy.close();
      await closeServer(store);
    },
  };
}

export async function startS3(directory: string, target: ListenTarget): Promise<{ server: S3rver; port: number }> {
  await mkdir(directory, { recursive: true });
  const server = new S3rver({ port: target.port, address: target.host, directory, silent: true, allowMismatchedSignatures: true });
  try {
    const address = (await server.run()) as { port: number };
    answerOnlyLocalRequests((server as unknown as { httpServer: Server }).httpServer, { pagesOfAnyOrigin: false });
    return { server, port: address.port };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUseError(target.port, target.service, target.envVar);
    throw error;
  }
}
