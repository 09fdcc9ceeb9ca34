/** What the app calls itself: in the header, the tab's title and the first paint. */
export const PRODUCT_NAME = "Keyscope";
