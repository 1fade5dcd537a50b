// The errors every part of the JS entry throws the same way: a call's abort, and the core's
// { error, kind } failures (binding.hpp) as the JS error of that kind.

const ERROR_TYPES = { TypeError, RangeError, Error };

/** The error type named `name` ('TypeError', 'RangeError'; Error for any other). */
export function errorType(name) {
  return ERROR_TYPES[name] ?? Error;
}

/**
 * The rejection of a call `where` cancelled by its AbortSignal, the same with one thread or workers:
 * the reason the caller gave (AbortController.abort(reason)) when it is an Error, else (abort()
 * without one) an Error named 'AbortError' ("<where>: aborted").
 */
export function abortError(where, signal) {
  const reason = signal?.reason;
  if (reason instanceof Error && reason.name !== 'AbortError') return reason;
  return Object.assign(new Error(`${where}: aborted`), { name: 'AbortError' });
}

// The core reports failures as { error, kind } (see binding.hpp); throw them here.
export function unwrap(result) {
  if (result && typeof result === 'object' && typeof result.error === 'string') {
    throw new (errorType(result.kind))(result.error);
  }
  return result;
}

const utf8 = new TextDecoder();

// The core hands JSON over as its UTF-8 bytes (jsonBytes in binding.hpp): one decode, one parse.
export function parseJson(bytes) {
  return JSON.parse(utf8.decode(bytes));
}
