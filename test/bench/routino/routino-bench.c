/*
 * Times Routino's own C API (libroutino) on a list of origin-destination pairs, the way
 * test/bench/routino.ts times Spoke's router: inside the process, per query, snap (both
 * Routino_FindWaypoint calls) plus search (Routino_CalculateRoute), excluding process start,
 * database load and profile parsing. The route comes back as ROUTINO_ROUTE_LIST_TEXT_ALL (every
 * node of the path, like the edge list Spoke's search returns); ROUTINO_ROUTE_LIST_TEXT crashes
 * inside libroutino 3.3.3 on these databases.
 *
 * Usage: routino-bench <database dir> <prefix> <profiles.xml> <translations.xml> <pairs file>
 * The pairs file holds one pair a line: "lon1 lat1 lon2 lat2" in degrees. Once loaded the program
 * prints "ready", then for every line "run" on standard input routes every pair once and prints
 * one line per pair, "<microseconds> <status> <snap microseconds>" (status 0 routed, 1 no waypoint
 * near an end, 2 no route found; the snap is the two Routino_FindWaypoint calls of the total), then
 * "done". It stops at end of input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <routino.h>

#define MAX_PAIRS 100000

static double pairs[MAX_PAIRS][4];

static double now_microseconds(void)
{
 struct timespec ts;
 clock_gettime(CLOCK_MONOTONIC, &ts);
 return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int main(int argc, char **argv)
{
 if (argc != 6)
   {
    fprintf(stderr, "usage: %s <database dir> <prefix> <profiles.xml> <translations.xml> <pairs file>\n", argv[0]);
    return 2;
   }
 if (Routino_CheckAPIVersion() != ROUTINO_ERROR_NONE)
   {
    fprintf(stderr, "libroutino API version mismatch\n");
    return 1;
   }
 Routino_Database *database = Routino_LoadDatabase(argv[1], argv[2]);
 if (!database) { fprintf(stderr, "cannot load database (error %d)\n", Routino_errno); return 1; }
 if (Routino_ParseXMLProfiles(argv[3])) { fprintf(stderr, "cannot read profiles (error %d)\n", Routino_errno); return 1; }
 if (Routino_ParseXMLTranslations(argv[4])) { fprintf(stderr, "cannot read translations (error %d)\n", Routino_errno); return 1; }
 Routino_Profile *profile = Routino_GetProfile("bicycle");
 Routino_Translation *translation = Routino_GetTranslation("en");
 if (!profile || !translation) { fprintf(stderr, "no bicycle profile or English translation\n"); return 1; }
 if (Routino_ValidateProfile(database, profile) != ROUTINO_ERROR_NONE) { fprintf(stderr, "profile not valid for database (error %d)\n", Routino_errno); return 1; }

 FILE *file = fopen(argv[5], "r");
 if (!file) { perror(argv[5]); return 1; }
 int count = 0;
 while (count < MAX_PAIRS && fscanf(file, "%lf %lf %lf %lf", &pairs[count][0], &pairs[count][1], &pairs[count][2], &pairs[count][3]) == 4) count++;
 fclose(file);

 printf("ready %d\n", count);
 fflush(stdout);

 char command[64];
 while (fgets(command, sizeof command, stdin))
   {
    if (strncmp(command, "run", 3) != 0) continue;
    for (int i = 0; i < count; i++)
      {
       int status = 0;
       double started = now_microseconds();
       Routino_Waypoint *waypoints[2];
       waypoints[0] = Routino_FindWaypoint(database, profile, pairs[i][1], pairs[i][0]);
       waypoints[1] = Routino_FindWaypoint(database, profile, pairs[i][3], pairs[i][2]);
       double snapped = now_microseconds();
       if (!waypoints[0] || !waypoints[1]) status = 1;
       else
         {
          Routino_Output *route = Routino_CalculateRoute(database, profile, translation, waypoints, 2,
                                                         ROUTINO_ROUTE_QUICKEST | ROUTINO_ROUTE_LIST_TEXT_ALL, NULL);
          if (!route) status = 2;
          else Routino_DeleteRoute(route);
         }
       double elapsed = now_microseconds() - started;
       free(waypoints[0]);
       free(waypoints[1]);
       printf("%.1f %d %.1f\n", elapsed, status, snapped - started);
      }
    printf("done\n");
    fflush(stdout);
   }
 Routino_UnloadDatabase(database);
 return 0;
}
