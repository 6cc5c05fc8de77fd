import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { useRelay } from "./harness.js";

const requestTimeoutMs = 1000;

/**
 * Opens a raw connection, sends `opening`, then one more byte every 100 ms (never finishing), and
 * resolves when the relay closes the connection: how long it held on, and what it answered.
 */
function trickle(
  url: string,
  opening: string,
  filler: string,
): Promise<{ ms: number; answer: string; sent: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect({ host: hostname, port: Number(port) });
    let answer = "";
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error("the relay kept a trickling connection open for 15 s"));
    }, 15_000);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      answer += chunk;
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ ms: performance.now() - started, answer, sent });
    });
    socket.on("connect", () => {
      socket.write(opening);
      timer = setInterval(() => {
        if (socket.writable) {
          socket.write(filler);
          sent += 1;
        }
      }, 100);
    });
  });
}

describe("a client that trickles its request", () => {
  const setup = useRelay({ relay: { requestTimeoutMs } });

  it("sending a header byte every 100 ms is cut within the request timeout", async () => {
    const { ms, answer, sent } = await trickle(
      setup.rig.url,
      "GET /healthz HTTP/1.1\r\nHost: relay\r\nX-Slow: ",
      "a",
    );
    // Node checks its timeouts every quarter of the timeout here: cut after it, and not long after.
    expect(ms).toBeGreaterThanOrEqual(requestTimeoutMs - 50);
    expect(ms).toBeLessThan(requestTimeoutMs * 2);
    expect(sent).toBeGreaterThanOrEqual(8);
    expect(answer === "" || answer.startsWith("HTTP/1.1 408")).toBe(true);
  });

  it("a request whose header lines never end is cut as well", async () => {
    const { ms } = await trickle(setup.rig.url, "GET /healthz HTTP/1.1\r\n", "X-A: b\r\n");
    expect(ms).toBeLessThan(requestTimeoutMs * 2);
  });

  it("a complete request on the same relay is answered", async () => {
    const response = await fetch(`${setup.rig.url}/healthz`);
    expect(response.status).toBe(200);
  });
});
