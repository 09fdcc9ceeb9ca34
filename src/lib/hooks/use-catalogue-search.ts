import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import type { Connection } from "../api/transport";
import { catalogueSearch, permissionPagesQueryOptions, rolePagesQueryOptions } from "../catalogue-query";
import type { KeyscopeError } from "../api-errors";
import { useSettled } from "./use-settled";

/** How long typing must pause before the server is asked. */
const SETTLE_MS = 250;

/** One entry of the catalogue to pick: what is sent (a permission's slug, a role's name) and what says more of it. */
export interface CatalogueEntry {
  value: string;
  /** Its name, where it is not the value (a permission's). */
  name?: string | undefined;
  description?: string | undefined;
}

/** The catalogue searched on the server as one types: what a pick list shows. */
export interface CatalogueSearch {
  text: string;
  setText: (text: string) => void;
  /** The search the entries are for (typing settled). */
  asked: string;
  /** The entries of the pages loaded; undefined until the first answer (or while it fails). */
  entries: readonly CatalogueEntry[] | undefined;
  /** A page (or a new search) is on its way. */
  loading: boolean;
  /** The entries are the previous search's, kept while this one's first page is on its way. */
  stale: boolean;
  hasMore: boolean;
  loadMore: () => void;
  /** Why the catalogue could not be listed, when it could not (a refusal: the root key may not read it). */
  error: KeyscopeError | null;
  retry: () => void;
}

type Pages<T> = { pages: { items: T[]; cursor: string | undefined }[] } | undefined;

function useSearch<T>(
  text: string,
  setText: (text: string) => void,
  asked: string,
  query: {
    data: Pages<T>;
    isFetching: boolean;
    isPlaceholderData: boolean;
    hasNextPage: boolean;
    isFetchingNextPage: boolean;
    fetchNextPage: () => Promise<unknown>;
    error: KeyscopeError | null;
    refetch: () => Promise<unknown>;
  },
  entryOf: (item: T) => CatalogueEntry,
): CatalogueSearch {
  const { data } = query;
  const entries = useMemo(() => data?.pages.flatMap((page) => page.items.map(entryOf)), [data, entryOf]);
  return {
    text,
    setText,
    asked,
    entries,
    loading: query.isFetching || catalogueSearch(text) !== asked,
    stale: query.isPlaceholderData || catalogueSearch(text) !== asked,
    hasMore: query.hasNextPage,
    loadMore: () => {
      if (query.hasNextPage && !query.isFetchingNextPage && query.error === null) void query.fetchNextPage();
    },
    error: query.error,
    retry: () => void query.refetch(),
  };
}

const permissionEntry = (permission: {
  slug?: string | undefined;
  name: string;
  description?: string | undefined;
}) => ({
  value: permission.slug ?? permission.name,
  ...(permission.slug !== undefined && permission.slug !== permission.name && { name: permission.name }),
  description: permission.description,
});

const roleEntry = (role: { name: string; description?: string | undefined }) => ({
  value: role.name,
  description: role.description,
});

/** The workspace's permissions, searched on the server (`permissions.listPermissions` with `search`), paged as scrolled. */
export function usePermissionSearch(connection: Connection, enabled = true): CatalogueSearch {
  const [text, setText] = useState("");
  const asked = useSettled(catalogueSearch(text), SETTLE_MS);
  const query = useInfiniteQuery({
    ...permissionPagesQueryOptions(connection, asked),
    select: (data) => ({ pages: data.pages.map((page) => ({ items: page.permissions, cursor: page.cursor })) }),
    placeholderData: keepPreviousData,
    enabled,
  });
  return useSearch(text, setText, asked, query, permissionEntry);
}

/** The workspace's roles, searched on the server (`permissions.listRoles` with `search`), paged as scrolled. */
export function useRoleSearch(connection: Connection, enabled = true): CatalogueSearch {
  const [text, setText] = useState("");
  const asked = useSettled(catalogueSearch(text), SETTLE_MS);
  const query = useInfiniteQuery({
    ...rolePagesQueryOptions(connection, asked),
    select: (data) => ({ pages: data.pages.map((page) => ({ items: page.roles, cursor: page.cursor })) }),
    placeholderData: keepPreviousData,
    enabled,
  });
  return useSearch(text, setText, asked, query, roleEntry);
}
