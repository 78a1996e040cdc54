#!/usr/bin/env python3
"""Rebuild the font files under fonts/ from their sources, and fonts/manifest.json.

Sources: Debian packages fonts-noto-core and fonts-noto-cjk (installed in /usr/share/fonts), and
Pangolin from the npm package @expo-google-fonts/pangolin (`npm pack`, then pass the .ttf path).
Every face is OFL-1.1; see README.md. Needs python3-fonttools.

    python3 fonts/build-fonts.py /path/to/Pangolin_400Regular.ttf
    python3 fonts/build-fonts.py --manifest     (only rewrite manifest.json)

Script fonts are copied as they are. The Noto Sans CJK collection (19 MB, every language in one
file) is split: one core file per language (kana, hangul, the language's common ideographs, Latin
and punctuation), so a Japanese request loads only Japanese, plus one shared file with every
other ideograph of the basic CJK block, loaded only when a text needs one.
"""

import hashlib
import json
import shutil
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

OUT = Path(__file__).resolve().parent
NOTO = Path("/usr/share/fonts/truetype/noto")
CJK_TTC = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")

SCRIPT_FONTS = [
    "NotoSans-Regular.ttf",
    "NotoNaskhArabic-Regular.ttf",
    "NotoSansHebrew-Regular.ttf",
    "NotoSansDevanagari-Regular.ttf",
    "NotoSansBengali-Regular.ttf",
    "NotoSansGurmukhi-Regular.ttf",
    "NotoSansGujarati-Regular.ttf",
    "NotoSansOriya-Regular.ttf",
    "NotoSansTamil-Regular.ttf",
    "NotoSansTelugu-Regular.ttf",
    "NotoSansKannada-Regular.ttf",
    "NotoSansMalayalam-Regular.ttf",
    "NotoSansSinhala-Regular.ttf",
    "NotoSansThai-Regular.ttf",
    "NotoSansLao-Regular.ttf",
    "NotoSansKhmer-Regular.ttf",
    "NotoSansMyanmar-Regular.ttf",
    "NotoSansEthiopic-Regular.ttf",
    "NotoSansGeorgian-Regular.ttf",
    "NotoSansArmenian-Regular.ttf",
    "NotoSansThaana-Regular.ttf",
]


def ranges(*pairs):
    out = set()
    for lo, hi in pairs:
        out.update(range(lo, hi + 1))
    return out


# Shared by every CJK core: ASCII, Latin-1, general punctuation, CJK symbols and punctuation,
# full-width forms, vertical forms, enclosed numbers, arrows and shapes that lettering uses.
COMMON = ranges(
    (0x20, 0x7E), (0xA0, 0xFF), (0x2010, 0x2027), (0x2030, 0x205E), (0x2190, 0x21FF),
    (0x2460, 0x24FF), (0x25A0, 0x26FF), (0x3000, 0x303F), (0xFE10, 0xFE1F), (0xFE30, 0xFE4F),
    (0xFF00, 0xFFEF), (0x2100, 0x214F), (0x2200, 0x22FF), (0x3200, 0x33FF),
)
IDEOGRAPHS = ranges((0x4E00, 0x9FFF))


def encodable_ideographs(codec):
    """The basic-block ideographs a legacy national character set encodes: that language's common set."""
    found = set()
    for cp in IDEOGRAPHS:
        try:
            chr(cp).encode(codec)
            found.add(cp)
        except UnicodeEncodeError:
            pass
    return found


def big5_level1():
    """Big5 level 1 (A440-C67E): the 5,401 frequently used traditional characters."""
    found = set()
    for cp in IDEOGRAPHS:
        try:
            b = chr(cp).encode("big5")
        except UnicodeEncodeError:
            continue
        if len(b) == 2 and 0xA440 <= (b[0] << 8 | b[1]) <= 0xC67E:
            found.add(cp)
    return found


KANA = ranges((0x3040, 0x30FF), (0x31F0, 0x31FF))
HANGUL = ranges((0x1100, 0x11FF), (0x3130, 0x318F), (0xAC00, 0xD7A3))
BOPOMOFO = ranges((0x3100, 0x312F))

CJK = [
    # (output file, face name in the collection, code points)
    ("NotoSansCJKjp-Regular.otf", "Noto Sans CJK JP", lambda: COMMON | KANA | encodable_ideographs("cp932")),
    ("NotoSansCJKsc-Regular.otf", "Noto Sans CJK SC", lambda: COMMON | encodable_ideographs("gb2312")),
    ("NotoSansCJKtc-Regular.otf", "Noto Sans CJK TC", lambda: COMMON | BOPOMOFO | big5_level1()),
    ("NotoSansCJKkr-Regular.otf", "Noto Sans CJK KR", lambda: COMMON | HANGUL),
    # Every basic-block ideograph, in Simplified Chinese forms: the fallback of all four cores.
    ("NotoSansCJK-Ideographs-Regular.otf", "Noto Sans CJK SC", lambda: COMMON | IDEOGRAPHS),
]


def subset_face(face, codepoints, out_path):
    options = subset.Options()
    options.layout_features = ["*"]  # vert/vrt2 (vertical punctuation), locl, kerning
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.hinting = False  # outlines only: our rasterizer does not hint, and it halves the size
    options.notdef_outline = True
    sub = subset.Subsetter(options)
    sub.populate(unicodes=sorted(codepoints))
    sub.subset(face)
    face.recalcTimestamp = False  # keep the source's date: rebuilding gives the same bytes
    face.save(out_path)


def main(pangolin):
    for name in SCRIPT_FONTS:
        shutil.copyfile(NOTO / name, OUT / name)
    shutil.copyfile(pangolin, OUT / "Pangolin-Regular.ttf")

    collection = TTCollection(str(CJK_TTC))
    by_name = {f["name"].getDebugName(4): i for i, f in enumerate(collection.fonts)}
    for out_name, face_name, points in CJK:
        face = TTCollection(str(CJK_TTC)).fonts[by_name[face_name]]
        subset_face(face, points(), OUT / out_name)

    write_manifest()


def write_manifest():
    manifest = []
    for path in sorted(OUT.glob("*.[ot]tf")):
        data = path.read_bytes()
        manifest.append({"file": path.name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()})
    (OUT / "manifest.json").write_text(json.dumps(manifest, indent="\t") + "\n")


if __name__ == "__main__":
    if sys.argv[1:] == ["--manifest"]:
        write_manifest()
    else:
        main(sys.argv[1])
