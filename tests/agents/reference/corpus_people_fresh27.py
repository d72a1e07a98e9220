# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A twenty-seventh fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a
helper session (branch ``i36-fresh27``) writing blind: it did not open the grammar (anything under
agents/), the apps' phrasing declarations (miniapps/*/phrasings.json), docs/decisions/, git history nor
the rows of any other corpus or held-out set (nor another writer's worktree) — only the eighth fresh set's
module docstring (for the format and the rules), the measuring helpers (``_rows``, ``_kind``, ``_check``
in test_corpus.py and ``_measure``, ``_label`` and the ``_DETERMINER`` regex in test_corpus_people.py,
their bodies only) and the apps' manifests for their bounds (focus up to 24 hours, quiz up to 1 hour;
Notes has no start). It did not search the repository for phrases and did not run the parser or the
measure on its rows. Each row was labelled with what a careful human assistant would do with the two
timed apps installed (a focus timer and an arithmetic quiz): an unclear request is ``ask`` or ``help``,
never a guess. It is measured once, by someone else, after all rows were written, and no row is changed
after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app — a length said alone with no
app nor work), ``range`` (a duration past the app's bound) and ``help`` (anything that must not act:
questions about the apps, jokes, greetings, negations, past tense, hypotheticals, someone else's doing,
plans for later, things it cannot do — reminders, alarms, pausing, notes, quizzes on anything but the four
arithmetic kinds — and scores reported). An activity is written as the person would want the timer
labelled, cut from the request in their words; a quiz with no kind named is ``mixed``; a pomodoro with a
bare number is read as minutes, one with no number asks.

Written as new voices — a ship's cook, a customs officer on a quiet night shift, a medical intern, a
Guangzhou shop owner writing Cantonese, a Chinese student in the UK mixing English words into Chinese, an
American learning Chinese, a yoga student, a math-olympiad coach, a retired soldier, a teenager texting in
abbreviations, a person who thanks for everything, a person who asks what the apps can do and then asks
for one in the same message — typing on phones and laptops: typos, slang, numbers as words and digits,
emoji, mixed zh/en in both tables, some traditional characters, context first, durations before or after
the verb. The mix, per language: about a third focus starts (with and without activity), a fifth quizzes
(with kinds and without), stops (also with both running, stopping one and keeping the other), status, a
fifth that must not act, a few asks and out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured once, as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH27_EN = """
galley's quiet for once, give me 40 minutes of focus on the weekly menu | start | 2400 | weekly menu
start a focus 25 min | start | 1500 | -
focus timer for an hour and a half pls, ordering stock | start | 5400 | ordering stock
quiet shift. start a 2 hour focus for the manifest backlog | start | 7200 | manifest backlog
start 45 min focus on discharge summaries, rounds at 7 | start | 2700 | discharge summaries
Could you please start a twenty-five minute focus session for me? Thank you so much! | start | 1500 | -
thank you in advance — 50 minutes of focus on my cover letter please, thanks again | start | 3000 | cover letter
pls start 25m focus 4 hw thx | start | 1500 | hw
yo set focus 1hr for chem revision | start | 3600 | chem revision
I'd like to focus on breathing practice for 15 minutes | start | 900 | breathing practice
Commence focus. Duration: ninety minutes. Task: memoir chapter 3. | start | 5400 | memoir chapter 3
focus for 1h15 on the tax forms | start | 4500 | tax forms
2 hrs focus, no activity, just go | start | 7200 | -
what can you do? ok never mind, just start a 20 minute focus for email | start | 1200 | email
start a focus sesion for 30 minuts | start | 1800 | -
lemme get a 35 min focus on the pitch deck 🙏 | start | 2100 | pitch deck
Start a 3-hour focus block: grading mock olympiad papers. | start | 10800 | grading mock olympiad papers
focus mode on, 10 minutes, tidying the inbox | start | 600 | tidying the inbox
half an hour of deep work on the API docs please | start | 1800 | API docs
start the focus timer for 40 mins, studying pharmacology | start | 2400 | studying pharmacology
Set a focus of 8 hours for the night watch logbook | start | 28800 | night watch logbook
focus for 24 hours on the hackathon | start | 86400 | hackathon
Focus 20 min. Inventory count. | start | 1200 | inventory count
can u start a focus thing for like 15 mins | start | 900 | -
Begin a focus session of one hour, please. Subject: Mandarin tones. Thank you. | start | 3600 | Mandarin tones
for the next 45 minutes I want to focus on reading | start | 2700 | reading
start focusing now, 55 min, lab report | start | 3300 | lab report
kick off a pomodoro, 25 | start | 1500 | -
start focus 30 min 写作业 | start | 1800 | 写作业
OK let's go: focus, 1 hour 20 minutes, thesis intro | start | 4800 | thesis intro
please start a two and a half hour focus on the quarterly audit | start | 9000 | quarterly audit
timer me 20 min focus, sketching | start | 1200 | sketching
focus 90m | start | 5400 | -
Start a focus session for six hours — studying for boards | start | 21600 | studying for boards
hey! could you do a 12 minute focus for meditation prep? thanks!! | start | 720 | meditation prep
I need to concentrate on the customs declarations for 50 min, start it please | start | 3000 | customs declarations
start a 5 minute focus | start | 300 | -
focus on my essay for three quarters of an hour | start | 2700 | essay
Focus. 45. Minutes. Now. | start | 2700 | -
soup's on the stove for ages, so start a 30 min focus on the stores list | start | 1800 | stores list
quiz me on times tables for 5 minutes | quiz | 300 | multiplication
start a 10 min arithmetic quiz | quiz | 600 | mixed
give me a 2 minute addition drill | quiz | 120 | addition
Run a fifteen-minute multiplication quiz for warm-up. | quiz | 900 | multiplication
subtraction quiz, 3 mins pls | quiz | 180 | subtraction
mental math quiz for half an hour | quiz | 1800 | mixed
can I get a quick 90 second math quiz | quiz | 90 | mixed
what apps do you have? oh cool, a 3 minute times tables quiz then | quiz | 180 | multiplication
Quiz: addition, 20 min. Thank you kindly! | quiz | 1200 | addition
lil math quiz 4 me 5min, just minus pls | quiz | 300 | subtraction
practice multiplying for ten minutes, quiz format | quiz | 600 | multiplication
start an hour long arithmetic quiz | quiz | 3600 | mixed
test me on adding numbers, 7 minutes | quiz | 420 | addition
a quarter of an hour of mixed arithmetic questions please | quiz | 900 | mixed
take-away sums quiz for 6 minutes | quiz | 360 | subtraction
I want to do a maths quiz for 12 mins | quiz | 720 | mixed
one minute multiplication blitz quiz go | quiz | 60 | multiplication
start quiz 45 min | quiz | 2700 | mixed
quizz me addition 8 minuts | quiz | 480 | addition
Drill me on subtraction, two minutes, thanks a lot | quiz | 120 | subtraction
arithmetic quiz please, 25 minutes, any kind of sums | quiz | 1500 | mixed
multiplication quiz, thirty seconds, let's see | quiz | 30 | multiplication
give me a 4-minute quiz on multiplication tables 🧮 | quiz | 240 | multiplication
stop | stop
stop the timer | stop
end the quiz please | stop
cancel focus, emergency in the ER | stop
stop the quiz but keep my focus timer running | stop
kill the timer, leave the quiz going | stop
ok I'm done, you can stop it now, thank you! | stop
abort focus session | stop
Stand down the timer. | stop
stahp the quiz lol | stop
end both please | stop
quit the math quiz, the timer can keep going | stop
how long left? | status
is my timer still running? | status
how much time on the quiz? | status
what's running right now | status
time check pls | status
how many minutes till the focus ends | status
am I still in a focus session? | status
status? | status
how far along is the quiz | status
when does my focus end? thanks! | status
hw much time left on the focus thing | status
which one is running, the quiz or the timer? | status
hi! | help
what can you do? | help
how does the focus timer work? | help
don't start anything yet | help
I did a 30 min focus this morning, felt great | help
remind me to call the supplier at 4 | help
set an alarm for 6am | help
pause the timer for a sec | help
add 'buy flour' to my notes | help
quiz me on French vocabulary for 10 minutes | help
can you do a division quiz for 5 min? | help
I got 17 out of 20 on the last quiz! | help
tomorrow at 8 start a 25 min focus | help
if I had the time I'd do a two hour focus | help
my roommate is doing a 45 minute focus | help
lol this app is wild | help
thanks so much for earlier! | help
what's the longest quiz I can do? | help
maybe later I'll do a quiz | help
no, don't start the timer | help
tell me a joke about pomodoros | help
how do I get better at mental arithmetic? | help
quiz me on anatomy for 20 min | help
can the timer run for a whole day? | help
start a focus session | ask
let's do 30 minutes | ask
start a quiz | ask
20 min pls | ask
I need to focus on the ledger | ask
one pomodoro please | ask
focus for 30 hours straight | range
start a 2 hour multiplication quiz | range
quiz me for 90 minutes, addition | range
focus for two days on the move | range
Set focus for 36 hours, deployment exercise | range
"""

HELD_OUT_FRESH27_ZH = """
开始专注二十五分钟 | start | 1500 | -
帮我专注45分钟，写论文 | start | 2700 | 写论文
帮我开半个钟专注，埋数 | start | 1800 | 埋数
专注一个钟，整理货架 | start | 3600 | 整理货架
帮我开个 focus，一个小时，写 essay | start | 3600 | 写 essay
deadline 快到了，专注 90 分钟，dissertation | start | 5400 | dissertation
我要专心二十分钟，学习汉字 | start | 1200 | 学习汉字
请开始一个三十分钟的专注时间，谢谢 | start | 1800 | -
幫我開始專注四十分鐘，讀書 | start | 2400 | 讀書
專注一小時，寫報告 | start | 3600 | 寫報告
谢谢你！麻烦帮我开一个二十五分钟的专注，谢谢谢谢 | start | 1500 | -
值班间隙专注半小时看病历 | start | 1800 | 看病历
开个番茄钟，25分钟 | start | 1500 | -
专注两小时，整理回忆录 | start | 7200 | 整理回忆录
专注20min 刷题 冲 | start | 1200 | 刷题
一刻钟专注，回邮件 | start | 900 | 回邮件
我想专注练呼吸十五分钟 | start | 900 | 练呼吸
开始专注三个小时，批改奥数模拟卷 | start | 10800 | 批改奥数模拟卷
专注1.5小时，准备面试 | start | 5400 | 准备面试
帮我计时专注三刻钟，背单词 | start | 2700 | 背单词
船上厨房终于安静了，专注四十分钟排下周菜单 | start | 2400 | 排下周菜单
夜班没人，开个两个半小时的专注，清积压的报关单 | start | 9000 | 清积压的报关单
廿五分钟专注，点货 | start | 1500 | 点货
开始专注，时长五十分钟 | start | 3000 | -
专注 8 小时写代码 | start | 28800 | 写代码
给我来个一小时二十分钟的专注，做实验报告 | start | 4800 | 做实验报告
专注十分钟就好 | start | 600 | -
現在開始專注二十分鐘 | start | 1200 | -
what can you do? 算了，直接帮我专注半小时读文献 | start | 1800 | 读文献
你都能干啥？哦那先开个二十分钟的专注吧 | start | 1200 | -
专注 24 小时，黑客松 | start | 86400 | 黑客松
六个小时专注复习执医考试 | start | 21600 | 复习执医考试
帮我专注五分钟 | start | 300 | -
开始专注55分钟，练字 | start | 3300 | 练字
专注一个半钟，做账 | start | 5400 | 做账
我要专注学习四十五分钟，谢谢！ | start | 2700 | 学习
thx～帮我开专注 35 分钟，做 presentation | start | 2100 | 做 presentation
专注两个钟头，写小说 | start | 7200 | 写小说
退伍以后闲不住，专注一小时练书法 | start | 3600 | 练书法
来个五分钟的乘法测验 | quiz | 300 | multiplication
做十分钟口算练习 | quiz | 600 | mixed
考考我加法，两分钟 | quiz | 120 | addition
热身一下，十五分钟乘法小测 | quiz | 900 | multiplication
减法测验三分钟 | quiz | 180 | subtraction
开始半小时的算术测验 | quiz | 1800 | mixed
来个九十秒的数学小测 | quiz | 90 | mixed
九九乘法表测验，四分钟 | quiz | 240 | multiplication
麻烦给我出个加法测验，二十分钟，谢谢！ | quiz | 1200 | addition
quiz 一下减法，5 min | quiz | 300 | subtraction
一小时的口算测验 | quiz | 3600 | mixed
開始十分鐘的乘法測驗 | quiz | 600 | multiplication
测我加法 七分钟 | quiz | 420 | addition
来一刻钟的混合运算测验 | quiz | 900 | mixed
做个 12 分钟的数学 quiz | quiz | 720 | mixed
一分钟乘法挑战，开始！ | quiz | 60 | multiplication
开测验 45 分钟 | quiz | 2700 | mixed
减法小测 两分钟 谢谢 | quiz | 120 | subtraction
我想做一个加法的考试，八分钟 | quiz | 480 | addition
给学生演示下，来个三十秒的乘法测验 | quiz | 30 | multiplication
有啥功能？有测验的话给我来个六分钟的减法 | quiz | 360 | subtraction
口算测试，廿分钟 | quiz | 1200 | mixed
乘法quiz 3min pls | quiz | 180 | multiplication
停 | stop
停止计时 | stop
结束测验 | stop
急诊来病人了，取消专注 | stop
把测验停了，专注继续 | stop
停掉计时器，测验别动 | stop
好了我做完了，可以停了，谢谢！ | stop
唔使计时啦，停咗佢 | stop
結束專注 | stop
两个都停了吧 | stop
quiz 不做了，stop | stop
退出测验，计时保留 | stop
还剩多久？ | status
计时器还在跑吗 | status
测验还有几分钟 | status
现在在运行什么？ | status
仲有几耐？ | status
专注还剩多少时间 | status
我还在专注模式吗？ | status
进度咋样了，还剩多少 | status
還剩幾分鐘？ | status
什么时候结束啊？谢谢 | status
现在开着的是测验还是计时？ | status
time left? 还有多久 | status
你好 | help
你能做什么？ | help
专注计时器怎么用？ | help
先别开始 | help
我今天早上专注了一个小时 | help
提醒我四点给供应商打电话 | help
定个明早六点的闹钟 | help
暂停一下计时 | help
帮我记一下：明天进货 | help
考我十分钟英语单词 | help
来个五分钟的除法测验 | help
上次测验我答对了18道！ | help
明天早上八点帮我开二十五分钟专注 | help
要是有空我就专注两小时了 | help
我室友在专注四十五分钟 | help
哈哈哈这个好好玩 | help
谢谢啦 | help
测验最长可以多久？ | help
等会儿再说吧 | help
不要开计时器 | help
讲个笑话 | help
怎么提高口算速度？ | help
考我二十分钟解剖学 | help
計時器可以跑一整天嗎？ | help
开始专注 | ask
来二十分钟吧 | ask
开个测验 | ask
半小时，走起 | ask
我要专心看书 | ask
开个番茄钟 | ask
专注三十个小时 | range
来个两小时的乘法测验 | range
口算测验九十分钟 | range
专注两天写论文 | range
开一个36小时的专注 | range
"""
