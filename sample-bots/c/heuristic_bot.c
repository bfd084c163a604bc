/*
 * A heuristic tarneeb bot in C11 with the standard library only (protocol.md, version 1).
 *
 *   gcc -O2 -o heuristic_bot heuristic_bot.c
 *
 * It relies on nothing but the protocol. Every decision is made from the request alone (its
 * `legal` moves and its `view`, which holds the whole public history of the hand), so the bot
 * keeps no state between requests. A small JSON reader below turns each line into a tree.
 *
 * Strategy: estimate tricks from high cards, suit length and trump length; bid that estimate
 * (plus a partner share in the partnership games); name the best suit as trump; in play let a
 * winning partner have the trick, otherwise win as cheaply as possible, else throw the least
 * useful card; count the cards (and trumps) already played.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------ */
/* A minimal JSON reader                                                                       */
/* ------------------------------------------------------------------------------------------ */

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct jval {
    enum jtype type;
    double num;
    char *str;           /* J_STR: the string; for object members: the key (in `key`) */
    char *key;           /* set when this value is an object member */
    struct jval *child;  /* first element / member */
    struct jval *next;   /* next sibling */
} jval;

static const char *jp; /* parse cursor */
static int jfail;

static void jws(void) {
    while (*jp == ' ' || *jp == '\t' || *jp == '\n' || *jp == '\r') jp++;
}

static jval *jnew(enum jtype t) {
    jval *v = calloc(1, sizeof *v);
    if (!v) { jfail = 1; return NULL; }
    v->type = t;
    return v;
}

static char *jstring(void) { /* at the opening quote */
    size_t cap = 16, n = 0;
    char *s = malloc(cap);
    if (!s) { jfail = 1; return NULL; }
    jp++;
    while (*jp && *jp != '"') {
        char c = *jp++;
        if (c == '\\') {
            char e = *jp++;
            switch (e) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u': { /* keep ASCII, replace anything else by '?' */
                unsigned u = 0;
                for (int i = 0; i < 4 && *jp; i++) {
                    char h = *jp++;
                    u = u * 16 + (unsigned)(h >= 'a' ? h - 'a' + 10 : h >= 'A' ? h - 'A' + 10 : h - '0');
                }
                c = u < 128 ? (char)u : '?';
                break;
            }
            case '\0': jfail = 1; jp--; c = 0; break;
            default: c = e; break; /* \" \\ \/ */
            }
        }
        if (n + 2 > cap) {
            cap *= 2;
            char *t = realloc(s, cap);
            if (!t) { free(s); jfail = 1; return NULL; }
            s = t;
        }
        s[n++] = c;
    }
    if (*jp == '"') jp++; else jfail = 1;
    s[n] = 0;
    return s;
}

static jval *jvalue(int depth) {
    jws();
    if (depth > 64) { jfail = 1; return NULL; }
    jval *v = NULL;
    if (*jp == '{' || *jp == '[') {
        int obj = *jp == '{';
        char close = obj ? '}' : ']';
        v = jnew(obj ? J_OBJ : J_ARR);
        if (!v) return NULL;
        jp++;
        jws();
        jval **tail = &v->child;
        if (*jp == close) { jp++; return v; }
        for (;;) {
            char *key = NULL;
            jws();
            if (obj) {
                if (*jp != '"') { jfail = 1; return v; }
                key = jstring();
                jws();
                if (*jp != ':') { free(key); jfail = 1; return v; }
                jp++;
            }
            jval *e = jvalue(depth + 1);
            if (!e) { free(key); jfail = 1; return v; }
            e->key = key;
            *tail = e;
            tail = &e->next;
            jws();
            if (*jp == ',') { jp++; continue; }
            if (*jp == close) { jp++; return v; }
            jfail = 1;
            return v;
        }
    }
    if (*jp == '"') {
        v = jnew(J_STR);
        if (v) v->str = jstring();
        return v;
    }
    if (strncmp(jp, "true", 4) == 0) { jp += 4; v = jnew(J_BOOL); if (v) v->num = 1; return v; }
    if (strncmp(jp, "false", 5) == 0) { jp += 5; return jnew(J_BOOL); }
    if (strncmp(jp, "null", 4) == 0) { jp += 4; return jnew(J_NULL); }
    char *end;
    double d = strtod(jp, &end);
    if (end == jp) { jfail = 1; return NULL; }
    jp = end;
    v = jnew(J_NUM);
    if (v) v->num = d;
    return v;
}

static void jfree(jval *v) {
    while (v) {
        jval *n = v->next;
        jfree(v->child);
        free(v->str);
        free(v->key);
        free(v);
        v = n;
    }
}

static jval *jget(const jval *o, const char *key) {
    if (!o || o->type != J_OBJ) return NULL;
    for (jval *m = o->child; m; m = m->next)
        if (m->key && strcmp(m->key, key) == 0) return m;
    return NULL;
}
static jval *jidx(const jval *a, int i) {
    if (!a || a->type != J_ARR) return NULL;
    for (jval *e = a->child; e; e = e->next)
        if (i-- == 0) return e;
    return NULL;
}
static const char *jstr(const jval *v) { return v && v->type == J_STR ? v->str : NULL; }
static long jint(const jval *v) { return v && v->type == J_NUM ? (long)v->num : 0; }

/* ------------------------------------------------------------------------------------------ */
/* Cards                                                                                       */
/* ------------------------------------------------------------------------------------------ */

static const char RANKS[] = "23456789TJQKA";
static const char SUITS[] = "CDHS";
#define SUIT(c) ((c) / 13)
#define RANK(c) ((c) % 13)
#define NOTRUMP (-1)

static int parse_card(const char *s) {
    if (!s || strlen(s) != 2) return -1;
    const char *r = strchr(RANKS, s[0]), *u = strchr(SUITS, s[1]);
    if (!r || !u || !s[0] || !s[1]) return -1;
    return (int)(u - SUITS) * 13 + (int)(r - RANKS);
}
static int parse_suit(const char *s) {
    if (!s || strlen(s) != 1) return NOTRUMP;
    const char *u = strchr(SUITS, s[0]);
    return u && s[0] ? (int)(u - SUITS) : NOTRUMP;
}
static int cards_of(const jval *a, int *out, int max) {
    int n = 0;
    if (!a || a->type != J_ARR) return 0;
    for (jval *e = a->child; e && n < max; e = e->next) {
        int c = parse_card(jstr(e));
        if (c >= 0) out[n++] = c;
    }
    return n;
}

/* ------------------------------------------------------------------------------------------ */
/* Hand evaluation                                                                             */
/* ------------------------------------------------------------------------------------------ */

/* Estimated tricks the hand takes alone with trump `tr` (NOTRUMP: none). */
static double estimate(const int *hand, int n, int tr) {
    int len[4] = {0};
    bool has[4][13] = {{false}};
    for (int i = 0; i < n; i++) { len[SUIT(hand[i])]++; has[SUIT(hand[i])][RANK(hand[i])] = true; }
    int trump_len = tr >= 0 ? len[tr] : 0;
    double total = 0, shortness = 0;
    for (int s = 0; s < 4; s++) {
        int L = len[s];
        bool a = has[s][12], k = has[s][11], q = has[s][10], j = has[s][9];
        bool is_trump = s == tr;
        double t = 0;
        if (a) t += 1.0;
        if (k) t += a ? 1.0 : L >= 2 ? (is_trump ? 0.8 : 0.6) : 0.15;
        if (q) {
            if (a && k) t += (L >= 3 || is_trump) ? 1.0 : 0.5;
            else if ((a || k) && L >= 3) t += 0.5;
            else if (L >= 3) t += is_trump ? 0.4 : 0.25;
            else t += 0.1;
        }
        if (j && L >= 4 && (a + k + q) >= 2) t += 0.4;
        if (is_trump) {
            if (L > 3) t += (L - 3) * 0.9;
        } else if (tr >= 0) {
            if (L >= 5) t += (L - 4) * 0.3;
            if (trump_len >= 3) shortness += L == 0 ? 1.0 : L == 1 ? 0.5 : L == 2 ? 0.2 : 0.0;
        } else if (L >= 5 && (a + k + q) >= 2) {
            t += L - 4;
        }
        total += t;
    }
    if (tr >= 0) {
        double cap = trump_len - 1.0;
        if (cap < 0) cap = 0;
        if (cap > 2) cap = 2;
        total += shortness < cap ? shortness : cap;
    }
    return total;
}

static int best_suit(const int *hand, int n, double *est) {
    int best = 0;
    double be = -1e9;
    for (int s = 0; s < 4; s++) {
        int L = 0;
        for (int i = 0; i < n; i++) L += SUIT(hand[i]) == s;
        double e = estimate(hand, n, s) + L * 0.01;
        if (e > be) { be = e; best = s; }
    }
    if (est) *est = be;
    return best;
}

/* ------------------------------------------------------------------------------------------ */
/* Requests                                                                                    */
/* ------------------------------------------------------------------------------------------ */

#define MAXLEGAL 64
static const char *legal[MAXLEGAL];
static int nlegal;
static const jval *view;
static int me;
static int hand[13], nhand;

static bool is_legal(const char *m) {
    for (int i = 0; i < nlegal; i++)
        if (strcmp(legal[i], m) == 0) return true;
    return false;
}

/* A contract bid: level and strain (0..3 = C D H S, 4 = NT, -1 = number bid). */
static bool parse_bid(const char *s, int *level, int *strain) {
    if (!s || !(*s >= '0' && *s <= '9')) return false;
    int l = 0;
    while (*s >= '0' && *s <= '9') l = l * 10 + (*s++ - '0');
    *level = l;
    if (!*s) *strain = -1;
    else if (strcmp(s, "NT") == 0) *strain = 4;
    else if ((*strain = parse_suit(s)) < 0) return false;
    return true;
}

static char movebuf[16];

static const char *throw_in(void) {
    int len[4] = {0}, longest = 0;
    for (int i = 0; i < nhand; i++) len[SUIT(hand[i])]++;
    for (int s = 0; s < 4; s++) if (len[s] > longest) longest = len[s];
    double e;
    best_suit(hand, nhand, &e);
    /* A kept long suit may only pass or bid 13; a weak hand is better redealt. */
    return longest >= 10 && e >= 12.0 ? "keep" : "throw-in";
}

static const char *maybe_double(const jval *auction) {
    int level = 0, strain = -1, found = 0;
    for (jval *a = auction ? auction->child : NULL; a; a = a->next) {
        int l, st;
        if (parse_bid(jstr(jget(a, "call")), &l, &st)) { level = l; strain = st; found = 1; }
    }
    if (!found) return NULL;
    int tr = strain >= 0 && strain < 4 ? strain : NOTRUMP;
    double mine = estimate(hand, nhand, tr);
    double needed = 14 - level;
    return mine + 3.0 >= needed + 1.5 ? "double" : NULL;
}

/* The rules of individual games, from `hello` (defaults: the 400 preset). */
static int ind_trump = 2;
static bool ind_instant13 = true;
static long ind_points[14]; /* -1: no entry */
static long sum_base = 11, sum_from[16][2];
static int nsum_from;

static void read_rules(const jval *rules) { /* each game from the defaults (multi_game) */
    const jval *ind = jget(rules, "individual");
    ind_trump = 2;
    ind_instant13 = true;
    sum_base = 11;
    nsum_from = 0;
    for (int b = 0; b < 14; b++) ind_points[b] = -1;
    if (!ind) return;
    int t = parse_suit(jstr(jget(ind, "trump")));
    if (t >= 0) ind_trump = t;
    const char *th = jstr(jget(ind, "thirteen"));
    ind_instant13 = !th || strcmp(th, "instant") == 0;
    const jval *pts = jget(ind, "points");
    for (jval *m = pts && pts->type == J_OBJ ? pts->child : NULL; m; m = m->next) {
        int b = atoi(m->key);
        if (b >= 1 && b <= 13 && m->type == J_NUM) ind_points[b] = (long)m->num;
    }
    const jval *bs = jget(ind, "bid-sum");
    if (jget(bs, "base")) sum_base = jint(jget(bs, "base"));
    const jval *from = jget(bs, "from");
    nsum_from = 0;
    for (jval *e = from && from->type == J_ARR ? from->child : NULL; e && nsum_from < 16; e = e->next) {
        sum_from[nsum_from][0] = jint(jidx(e, 0));
        sum_from[nsum_from][1] = jint(jidx(e, 1));
        nsum_from++;
    }
}

/* exp(x) without libm: (1 + x/1024)^1024 for small |x|, enough for a probability. */
static double my_exp(double x) {
    if (x > 40) x = 40;
    if (x < -40) x = -40;
    double y = 1.0 + x / 1024.0;
    for (int i = 0; i < 10; i++) y *= y;
    return y;
}
/* The standard normal distribution function (a logistic approximation). */
static double phi(double x) { return 1.0 / (1.0 + my_exp(-1.702 * x)); }

static const char *individual_bid(void) {
    int tr = parse_suit(jstr(jget(view, "trump")));
    if (tr < 0) tr = ind_trump;
    double e = estimate(hand, nhand, tr);
    /* Expected score of each legal bid: made with probability P(tricks >= b), tricks ~ N(e, 1.1). */
    int best = -1;
    double best_ev = 0;
    for (int i = 0; i < nlegal; i++) {
        int b = atoi(legal[i]);
        if (b <= 0 || b > 13) continue;
        double ev;
        if (b == 13 && (ind_instant13 || ind_points[13] < 0)) {
            ev = e >= 12.5 ? 1000.0 : -1000.0;
        } else {
            double pts = ind_points[b] >= 0 ? (double)ind_points[b] : b;
            double p = phi((e - (b - 0.5)) / 1.1);
            ev = p * pts - (1.0 - p) * pts * 1.1;
        }
        if (best < 0 || ev > best_ev || (ev == best_ev && b < best)) { best = b; best_ev = ev; }
    }
    if (best < 0) return NULL;
    /* The last bidder raises to the bid total rather than see the hand thrown in, when that
       costs at most about a trick over the estimate. */
    const jval *bids = jget(view, "bids");
    if (bids && bids->type == J_ARR) {
        int n = 0, nulls = 0;
        long others = 0;
        for (jval *x = bids->child; x; x = x->next) {
            n++;
            if (x->type == J_NULL) nulls++; else others += jint(x);
        }
        if (n == 4 && nulls == 1) {
            long top = -1000000;
            const jval *ss = jget(view, "seat_scores");
            for (jval *x = ss ? ss->child : NULL; x; x = x->next) if (jint(x) > top) top = jint(x);
            if (top == -1000000) top = 0;
            long sum = sum_base;
            for (int i = 0; i < nsum_from; i++) if (top >= sum_from[i][0]) sum = sum_from[i][1];
            long need = sum - others;
            char nb[16];
            snprintf(nb, sizeof nb, "%ld", need);
            if (best < need && need <= e + 1.0 && need < 13 && is_legal(nb)) best = (int)need;
        }
    }
    snprintf(movebuf, sizeof movebuf, "%d", best);
    return movebuf;
}

static const char *call(void) {
    jval *bidsv = jget(view, "bids");
    jval *ss = jget(view, "seat_scores");
    if ((bidsv && bidsv->type != J_NULL) || (ss && ss->type == J_ARR)) return individual_bid();
    int partner = (me + 2) % 4;
    jval *auction = jget(view, "auction");
    int high_seat = -1, partner_level = 0;
    bool partner_passed = false;
    for (jval *a = auction ? auction->child : NULL; a; a = a->next) {
        int s = (int)jint(jget(a, "seat"));
        const char *c = jstr(jget(a, "call"));
        int l, st;
        if (parse_bid(c, &l, &st)) {
            high_seat = s;
            if (s == partner && l > partner_level) partner_level = l;
        } else if (c && strcmp(c, "pass") == 0 && s == partner && partner_level == 0) {
            partner_passed = true;
        }
    }
    double share = partner_level > 0 ? (partner_level - 3.5 > 3.0 ? partner_level - 3.5 : 3.0)
                   : partner_passed ? 2.5 : 3.0;
    bool can_pass = is_legal("pass");
    if (high_seat == partner && can_pass) return "pass";

    int nbids = 0, min_level = 99;
    bool strains = false;
    for (int i = 0; i < nlegal; i++) {
        int l, st;
        if (parse_bid(legal[i], &l, &st)) {
            nbids++;
            if (st >= 0) strains = true;
            if (l < min_level) min_level = l;
        }
    }
    const char *choice = NULL;
    if (nbids > 0 && !strains) {
        double e;
        best_suit(hand, nhand, &e);
        /* (No contested margin here: the elimination auction lets a pass end our say.) */
        double team = e + share - (min_level >= 10 ? 0.5 : 0.0);
        if (!(min_level >= 13 && team < 12.6) && team >= min_level) {
            snprintf(movebuf, sizeof movebuf, "%d", min_level);
            choice = movebuf;
        }
    } else if (nbids > 0) {
        double best_margin = -1;
        for (int st = 0; st < 5; st++) {
            double e = st == 4 ? estimate(hand, nhand, NOTRUMP) - 1.0 : estimate(hand, nhand, st);
            int bl = 99;
            const char *bm = NULL;
            for (int i = 0; i < nlegal; i++) {
                int l, s2;
                if (parse_bid(legal[i], &l, &s2) && s2 == st && l < bl) { bl = l; bm = legal[i]; }
            }
            if (!bm) continue;
            /* Outbidding an opponent: only with something to spare. */
            double team = e + share - (high_seat >= 0 ? 0.5 : 0.0) - (bl >= 10 ? 0.5 : 0.0);
            if (bl >= 13 && team < 12.6) continue;
            double margin = team - bl;
            if (margin >= 0 && margin > best_margin) { best_margin = margin; choice = bm; }
        }
    }
    if (choice) return choice;
    if (is_legal("double")) {
        const char *d = maybe_double(auction);
        if (d) return d;
    }
    if (can_pass) return "pass";
    /* Forced to bid: the cheapest bid in our best strain, else the cheapest bid. */
    int bs = best_suit(hand, nhand, NULL), bl = 99, al = 99;
    const char *bm = NULL, *am = NULL;
    for (int i = 0; i < nlegal; i++) {
        int l, st;
        if (!parse_bid(legal[i], &l, &st)) continue;
        if ((st < 0 || st == bs) && l < bl) { bl = l; bm = legal[i]; }
        if (l < al) { al = l; am = legal[i]; }
    }
    return bm ? bm : am;
}

static const char *choose_trump(void) {
    double e;
    int s = best_suit(hand, nhand, &e);
    if (is_legal("NT") && estimate(hand, nhand, NOTRUMP) >= e + 1.0) return "NT";
    movebuf[0] = SUITS[s];
    movebuf[1] = 0;
    return movebuf;
}

/* ------------------------------------------------------------------------------------------ */
/* Card play                                                                                   */
/* ------------------------------------------------------------------------------------------ */

static int trump;             /* NOTRUMP or 0..3 */
static bool seen[52];         /* played, or in my hand */
static bool voids[4][4];      /* voids[seat][suit]: the seat showed out */
static int leader, trick[4], ntrick;
static bool individual, declaring_side;
static long my_need, partner_need;

static bool outstanding(int c) { return !seen[c]; }
static bool master(int c) {
    for (int r = RANK(c) + 1; r < 13; r++)
        if (outstanding(SUIT(c) * 13 + r)) return false;
    return true;
}
static int outstanding_in(int s) {
    int n = 0;
    for (int r = 0; r < 13; r++) n += outstanding(s * 13 + r);
    return n;
}
static bool beats(int a, int b) {
    if (SUIT(a) == SUIT(b)) return RANK(a) > RANK(b);
    return SUIT(a) == trump;
}
static int count_suit(const int *cs, int n, int s) {
    int k = 0;
    for (int i = 0; i < n; i++) k += SUIT(cs[i]) == s;
    return k;
}
static int lowest(const int *cs, int n) {
    int b = cs[0];
    for (int i = 1; i < n; i++)
        if (RANK(cs[i]) < RANK(b) || (RANK(cs[i]) == RANK(b) && SUIT(cs[i]) < SUIT(b))) b = cs[i];
    return b;
}
static int cheapest(const int *cs, int n) { /* a non-trump before a trump, then the lowest */
    int b = cs[0];
    for (int i = 1; i < n; i++) {
        int kb = (SUIT(b) == trump) * 100 + RANK(b), kc = (SUIT(cs[i]) == trump) * 100 + RANK(cs[i]);
        if (kc < kb) b = cs[i];
    }
    return b;
}

/* Might a seat in after[] (opponents only) beat `card` in a trick led in suit `led`? */
static bool may_be_beaten(int card, int led, const int *after, int nafter) {
    for (int i = 0; i < nafter; i++) {
        int p = after[i];
        if (p % 2 == me % 2) continue;
        bool trump_out = trump >= 0 && outstanding_in(trump) > 0 && !voids[p][trump];
        int cs = SUIT(card);
        bool higher = false;
        for (int r = RANK(card) + 1; r < 13; r++) higher |= outstanding(cs * 13 + r);
        if (cs == trump) {
            if (higher && !voids[p][cs]) return true;
            continue;
        }
        if (!voids[p][led]) {
            if (higher) return true;
            if (trump_out && outstanding_in(led) <= 1) return true;
        } else if (trump_out) {
            return true;
        }
    }
    return false;
}

static int discard_or_low(const int *lg, int n, bool following) {
    if (following) return lowest(lg, n);
    int best = lg[0];
    long bs = 1L << 30;
    for (int i = 0; i < n; i++) {
        int c = lg[i], s = SUIT(c);
        int len = count_suit(hand, nhand, s);
        long score = RANK(c) * 2 + len;
        if (s == trump) score += 100;
        if (master(c)) score += 30;
        int top = -1;
        for (int j = 0; j < nhand; j++)
            if (SUIT(hand[j]) == s && (top < 0 || RANK(hand[j]) > RANK(top))) top = hand[j];
        if (top >= 0 && top != c && !master(top) &&
            ((RANK(top) == 11 && len <= 2) || (RANK(top) == 10 && len <= 3)))
            score += 12;
        if (score < bs) { bs = score; best = c; }
    }
    return best;
}

static int lead_plain(const int *lg, int n) {
    int opps[2] = {(me + 1) % 4, (me + 3) % 4}, partner = (me + 2) % 4;
    bool opp_trumps = trump >= 0 && outstanding_in(trump) > 0 && (!voids[opps[0]][trump] || !voids[opps[1]][trump]);
    int side[13], ns = 0;
    for (int i = 0; i < n; i++) if (SUIT(lg[i]) != trump) side[ns++] = lg[i];
    if (ns == 0) {
        int top = lg[0];
        for (int i = 1; i < n; i++) if (RANK(lg[i]) > RANK(top)) top = lg[i];
        return master(top) ? top : lowest(lg, n);
    }
    /* 1. A master card in a side suit no opponent can ruff. */
    int best = -1;
    long bscore = -(1L << 30);
    for (int i = 0; i < ns; i++) {
        int c = side[i], s = SUIT(c);
        if (!master(c)) continue;
        bool ruff_risk = opp_trumps && (voids[opps[0]][s] || voids[opps[1]][s]);
        bool thin = opp_trumps && outstanding_in(s) <= 2;
        if (ruff_risk || thin) continue;
        long score = count_suit(side, ns, s) * 10L - RANK(c);
        if (best < 0 || score > bscore) { bscore = score; best = c; }
    }
    if (best >= 0) return best;
    /* 2. A suit partner is void in (and may ruff), when opponents are not. */
    if (trump >= 0 && !voids[partner][trump] && outstanding_in(trump) > 0) {
        for (int i = 0; i < ns; i++) {
            int s = SUIT(side[i]);
            if (voids[partner][s] && !voids[opps[0]][s] && !voids[opps[1]][s]) {
                int cs[13], k = 0;
                for (int j = 0; j < ns; j++) if (SUIT(side[j]) == s) cs[k++] = side[j];
                return lowest(cs, k);
            }
        }
    }
    /* 3. Low from a long suit without an honour that needs a guard. */
    int my_trumps = trump >= 0 ? count_suit(hand, nhand, trump) : 0;
    best = -1;
    for (int s = 0; s < 4; s++) {
        int cs[13], k = 0;
        for (int j = 0; j < ns; j++) if (SUIT(side[j]) == s) cs[k++] = side[j];
        if (!k) continue;
        long score = k * 3L;
        int top = cs[0];
        for (int j = 1; j < k; j++) if (RANK(cs[j]) > RANK(top)) top = cs[j];
        if (!master(top) && RANK(top) >= 9) score -= 6;
        if (k == 1 && my_trumps >= 1 && !declaring_side && RANK(top) < 9) score += 4;
        if (best < 0 || score > bscore) { bscore = score; best = lowest(cs, k); }
    }
    return best >= 0 ? best : lowest(side, ns);
}

static int lead(const int *lg, int n) {
    if (trump < 0) {
        if (nhand == 13 && declaring_side && jget(view, "trump") && jget(view, "trump")->type == J_NULL) {
            int s = best_suit(hand, nhand, NULL), top = -1;
            for (int i = 0; i < n; i++)
                if (SUIT(lg[i]) == s && (top < 0 || RANK(lg[i]) > RANK(top))) top = lg[i];
            if (top >= 0) return top;
        }
        return lead_plain(lg, n);
    }
    int mt[13], k = 0;
    for (int i = 0; i < n; i++) if (SUIT(lg[i]) == trump) mt[k++] = lg[i];
    int o1 = (me + 1) % 4, o3 = (me + 3) % 4;
    bool opp_trumps = outstanding_in(trump) > 0 && (!voids[o1][trump] || !voids[o3][trump]);
    bool trump_side = individual ? k >= 4 : declaring_side;
    if (k > 0 && opp_trumps && trump_side) {
        int best = -1;
        for (int i = 0; i < k; i++)
            if (master(mt[i]) && (best < 0 || RANK(mt[i]) < RANK(best))) best = mt[i];
        if (best >= 0) return best;
        if (k > outstanding_in(trump) + 1) return lowest(mt, k);
    }
    return lead_plain(lg, n);
}

static int follow(const int *lg, int n) {
    int led = SUIT(trick[0]);
    int pos = ntrick;
    int after[3], nafter = 0;
    for (int i = pos + 1; i < 4; i++) after[nafter++] = (leader + i) % 4;
    int wi = 0;
    for (int i = 1; i < ntrick; i++) if (beats(trick[i], trick[wi])) wi = i;
    int win_seat = (leader + wi) % 4, win_card = trick[wi];
    int partner = (me + 2) % 4;
    bool partner_winning = win_seat == partner;
    bool partner_counts = !individual || partner_need > 0 || my_need <= 0;
    bool partner_safe = partner_winning && !may_be_beaten(win_card, led, after, nafter);
    bool following = true;
    for (int i = 0; i < n; i++) if (SUIT(lg[i]) != led) following = false;
    int winners[13], nw = 0, safe[13], nsafe = 0;
    for (int i = 0; i < n; i++) if (beats(lg[i], win_card)) winners[nw++] = lg[i];
    if (partner_winning && partner_counts && (partner_safe || nw == 0 || pos == 3))
        return discard_or_low(lg, n, following);
    if (nw == 0) return discard_or_low(lg, n, following);
    for (int i = 0; i < nw; i++)
        if (!may_be_beaten(winners[i], led, after, nafter)) safe[nsafe++] = winners[i];
    if (nsafe) return cheapest(safe, nsafe);
    if (partner_winning && partner_counts) return discard_or_low(lg, n, following);
    if (following && pos == 1) return lowest(lg, n);
    return cheapest(winners, nw);
}

static const char *play(void) {
    int lg[13], n = 0;
    for (int i = 0; i < nlegal && n < 13; i++) {
        int c = parse_card(legal[i]);
        if (c >= 0) lg[n++] = c;
    }
    if (n == 0) return NULL;
    trump = parse_suit(jstr(jget(view, "trump")));
    memset(seen, 0, sizeof seen);
    memset(voids, 0, sizeof voids);
    for (int i = 0; i < nhand; i++) seen[hand[i]] = true;
    jval *ct = jget(view, "current_trick");
    leader = (int)jint(jget(ct, "leader")) & 3;
    ntrick = cards_of(jget(ct, "cards"), trick, 4);
    jval *tricks = jget(view, "tricks");
    for (jval *t = tricks ? tricks->child : NULL;; t = t->next) {
        int cs[4], k, ld;
        if (t) { k = cards_of(jget(t, "cards"), cs, 4); ld = (int)jint(jget(t, "leader")) & 3; }
        else { k = ntrick; memcpy(cs, trick, sizeof cs); ld = leader; }
        for (int i = 0; i < k; i++) {
            seen[cs[i]] = true;
            if (SUIT(cs[i]) != SUIT(cs[0])) voids[(ld + i) % 4][SUIT(cs[0])] = true;
        }
        if (!t) break;
    }
    jval *ss = jget(view, "seat_scores");
    individual = ss && ss->type == J_ARR;
    int partner = (me + 2) % 4;
    jval *won = jget(view, "tricks_won");
    declaring_side = false;
    my_need = partner_need = 0;
    if (individual) {
        jval *bids = jget(view, "bids");
        my_need = jint(jidx(bids, me)) - jint(jidx(won, me));
        partner_need = jint(jidx(bids, partner)) - jint(jidx(won, partner));
    } else {
        jval *d = jget(jget(view, "contract"), "declarer");
        if (d && d->type == J_NUM) declaring_side = ((int)d->num) % 2 == me % 2;
    }
    int c = ntrick == 0 ? lead(lg, n) : follow(lg, n);
    movebuf[0] = RANKS[RANK(c)];
    movebuf[1] = SUITS[SUIT(c)];
    movebuf[2] = 0;
    return movebuf;
}

static const char *decide(const jval *req) {
    jval *lv = jget(req, "legal");
    nlegal = 0;
    for (jval *e = lv ? lv->child : NULL; e && nlegal < MAXLEGAL; e = e->next)
        if (jstr(e)) legal[nlegal++] = e->str;
    if (nlegal == 0) return "";
    view = jget(req, "view");
    me = (int)jint(jget(view, "seat")) & 3;
    nhand = cards_of(jget(view, "hand"), hand, 13);
    const char *d = jstr(jget(req, "decision"));
    const char *m = NULL;
    if (!d) m = NULL;
    else if (strcmp(d, "throw-in") == 0) m = throw_in();
    else if (strcmp(d, "call") == 0) m = call();
    else if (strcmp(d, "trump") == 0) m = choose_trump();
    else if (strcmp(d, "play") == 0) m = play();
    return m && is_legal(m) ? m : legal[0];
}

/* ------------------------------------------------------------------------------------------ */
/* Protocol loop                                                                               */
/* ------------------------------------------------------------------------------------------ */

static char *read_line(void) { /* the whole line, any length; NULL at end of input */
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    int c;
    if (!s) return NULL;
    while ((c = getchar()) != EOF && c != '\n') {
        if (n + 1 >= cap) {
            char *t = realloc(s, cap *= 2);
            if (!t) { free(s); return NULL; }
            s = t;
        }
        s[n++] = (char)c;
    }
    if (c == EOF && n == 0) { free(s); return NULL; }
    s[n] = 0;
    return s;
}

int main(void) {
    char *line;
    while ((line = read_line()) != NULL) {
        jp = line;
        jfail = 0;
        jval *msg = jvalue(0);
        const char *type = jstr(jget(msg, "type"));
        if (jfail || !type) {
            fprintf(stderr, "unreadable line\n");
        } else if (strcmp(type, "hello") == 0 || strcmp(type, "new_game") == 0) {
            read_rules(jget(msg, "rules"));
            printf("{\"type\": \"hello\", \"name\": \"c-heuristic\", \"version\": \"1.0\", "
                   "\"multi_game\": true}\n");
            fflush(stdout);
        } else if (strcmp(type, "request") == 0) {
            const char *m = decide(msg);
            printf("{\"type\": \"move\", \"id\": %ld, \"move\": \"%s\"}\n", jint(jget(msg, "id")), m);
            fflush(stdout);
        }
        /* game_end: wait for new_game or the end of input (multi_game) */
        jfree(msg);
        free(line);
    }
    return 0;
}
