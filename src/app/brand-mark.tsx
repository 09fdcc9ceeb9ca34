/**
 * Keyscope's mark beside its name in the header: the drawing of public/favicon.svg (the tab's icon), drawn inline.
 * An `<img>` of the SVG file cost a request and, in Chromium, an SVG document of its own built on the main thread
 * (about 6 ms while the first screen was being laid out); inline it is three shapes of the page.
 * test/src/app/brand-mark.test.tsx checks that both draw the same shapes.
 */
export function BrandMark() {
  return (
    <svg className="app-header__mark" viewBox="0 0 32 32" width={26} height={26} aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="#4f46e5" />
      <circle cx="12" cy="16" r="5.5" fill="none" stroke="#fff" strokeWidth="3" />
      <path d="M17 16h10m-4 0v5m3-5v3.5" stroke="#fff" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}
