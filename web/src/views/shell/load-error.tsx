/** Said in place of a list or view whose command failed, so it does not read as empty. */
export function LoadError(props: { what: string; error: string }) {
  return (
    <p class="error load-error" role="alert" data-testid="load-error">
      {props.what} could not be loaded: {props.error}
    </p>
  );
}
