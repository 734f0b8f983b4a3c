/** The checkpoint tests' repository: `a.txt` ("committed\n") committed on main. */
import { commitFile, makeRepo } from "../../daemon/workspaces/git-repo.ts";

export function repoWithA(): string {
  const repo = makeRepo();
  commitFile(repo, "a.txt", "committed\n");
  return repo;
}
