/** While a page's code loads. */
export function PageLoading() {
  return (
    <p className="page-status" role="status">
      <span className="spinner" aria-hidden="true" /> Loading…
    </p>
  );
}
