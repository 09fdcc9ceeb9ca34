/**
 * The keys page's first request, started before the app by a tiny module of its own (src/first-request/),
 * and adopted here by the API client: the network and the app's code load at the same time, and there is one
 * request, not two. What the early module started is adopted only when the client's request is exactly the same
 * (address, method, headers, body and fetch options), once; anything else goes to the network as usual, so an
 * early request that does not match is never mistaken for an answer to another one.
 */
import { defaultFetch } from "./fetch-tools";

/** The global the early module leaves its request under (a registered symbol: no string property of window). */
export const FIRST_REQUEST_SYMBOL = "keyscope.firstRequest";

/** What the early module hands over: the request it started, taken once by an identical request. */
export interface FirstRequest {
  /** The response of the early request when `url` and `init` are that very request; undefined otherwise or once taken. */
  take(url: string, init: RequestInit): Promise<Response> | undefined;
}

function isFirstRequest(value: unknown): value is FirstRequest {
  return typeof value === "object" && value !== null && "take" in value && typeof value.take === "function";
}

function startedEarly(): FirstRequest | undefined {
  const handoff: unknown = Reflect.get(globalThis, Symbol.for(FIRST_REQUEST_SYMBOL));
  return isFirstRequest(handoff) ? handoff : undefined;
}

/** A `fetch` for the transport: the early request's response when this is that request, else the network. */
export const adoptFirstRequest: typeof fetch = (input, init) => {
  const adopted = typeof input === "string" && init !== undefined ? startedEarly()?.take(input, init) : undefined;
  return adopted ?? defaultFetch(input, init);
};
