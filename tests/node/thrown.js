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

/** The error `call()` throws or its promise rejects with, or undefined when it resolves. */
export async function rejectionOf(call) {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return undefined;
}
