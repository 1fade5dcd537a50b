// What a call throws, for tests that check the error's class and message apart.

/** The error `call()` throws, or undefined when it returns. */
export function thrownBy(call) {
  try {
    call();
  } catch (error) {
    return error;
  }
  return undefined;
}
