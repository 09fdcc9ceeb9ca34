import { learnAllowed, learnMissingOperation, learnOperationExists, learnRefused } from "./access-memory";
import { isPermissionRefusal } from "./access-probe";
import { isMissingOperation } from "./api/list-keys";
import type { Connection } from "./api/transport";
import { noteSectionRead, sectionSlot, type SectionId, type SectionRead } from "./section-access";

/**
 * Reads a section with `read` (a query's function), and remembers what its answer says of the section: allowed,
 * refused for a permission, or missing from the service. The answer or the error goes on unchanged.
 */
export async function readSection<T>(
  connection: Connection,
  section: SectionId,
  how: SectionRead,
  read: () => Promise<T>,
): Promise<T> {
  noteSectionRead(connection, section, how.operation);
  try {
    const answer = await read();
    learnOperationExists(connection, how.operation);
    learnAllowed(connection, sectionSlot(section));
    return answer;
  } catch (error) {
    if (isMissingOperation(error)) learnMissingOperation(connection, how.operation);
    else if (isPermissionRefusal(error)) learnRefused(connection, sectionSlot(section), error.detail, how.permissions);
    throw error;
  }
}
