# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A thirtieth fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a helper
session (branch ``i36-fresh30``) writing blind: it did not open the grammar (anything under agents/), the
apps' phrasing declarations (miniapps/*/phrasings.json), the decisions (docs/decisions/), the rows of any
other corpus (the tables of test_corpus.py, the rows of any corpus_people*.py), nor git log, git show or
diffs — only the eighth fresh set's module docstring (for the format and the rules), the measuring helpers
(``_rows``, ``_kind``, ``_check`` in test_corpus.py and ``_measure``, ``_label`` and the ``_DETERMINER``
regex in test_corpus_people.py, their bodies only) and the apps' manifests for their bounds (focus up to
24 hours, quiz up to 1 hour; Notes has no timed start). It did not search the repository for phrases and
did not run the parser nor the measure on its rows. Each row was labelled with what a careful human
assistant would do with the two timed apps installed (a focus timer and an arithmetic quiz): an unclear
request is ``ask`` or ``help``, never a guess. It is measured once, by someone else, after all rows were
written, and no row is changed after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named, or when several are named together). Rows that are not a start carry only ``text | intent``.
Intents: start, quiz, stop, status, ``ask`` (a start with no clear duration, or one that could be either
app — a length said alone, with no app nor work), ``range`` (a duration past the app's bound) and
``help`` (anything that must not act: questions about the apps, jokes, negations, past tense,
hypotheticals, someone else's doing, plans for later, things it cannot do — reminders, alarms, pausing,
Notes, quizzes on anything but the four arithmetic kinds — scores reported, greetings and thanks). An
activity is written as the person would want the timer labelled, cut from the request in their words
(a leading "my"/"the" does not matter: the measure drops it).

Written as new voices — a bus mechanic, a flower farmer, a Shenzhen hardware engineer, a grandmother
teaching her granddaughter subtraction, a medical coder, a hotel chef, a PhD student in Chinese
literature, a teen on a phone with autocorrect, a courier who writes in shorthand, a person who quotes
the apps' own words back, someone who writes "pls" and "thx" everywhere, a person who writes in formal
email style — typing on phones and laptops: typos, slang, numbers as words and digits, emoji, mixed
zh/en in both tables, some traditional characters, context first, durations before or after the verb.
The mix, per language: about a third focus starts (with and without an activity), a fifth quizzes (with
and without a kind, durations in various forms), stops (also with both running, stopping one and
keeping the other), status questions, a fifth that must not act, a few asks and a few out-of-range.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured once, as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH30_EN = """
25 min focus on the brake drum rebuild pls | start | 1500 | brake drum rebuild
got a bus up on the lift in bay 3, give me 40 minutes of focus to finish the wiring diagram | start | 2400 | finish the wiring diagram
focus on brake pads for 20 min | start | 1200 | brake pads
⏱️ 45 min focus, engine diagnostics | start | 2700 | engine diagnostics
let me focus ninety minutes on the transmission manual | start | 5400 | transmission manual
Focus timer, 50 minutes: ICD-10 coding backlog | start | 3000 | ICD-10 coding backlog
start a focus for one hour and fifteen minutes, medical coding audit | start | 4500 | medical coding audit
pls start a 20 min focus thx | start | 1200 | -
hey can u start focus 15 mins pls, sorting invoices thx | start | 900 | sorting invoices
Dear Agent, kindly start a focus session of 45 minutes for the quarterly compliance review. Regards, M. | start | 2700 | quarterly compliance review
Please begin a focus period of 60 minutes regarding the Henderson account. | start | 3600 | Henderson account
Could you start a focus of twelve minutes? I just need to clear my inbox. | start | 720 | clear my inbox
I'd like to focus for an hour and a half on my dissertation chapter | start | 5400 | dissertation chapter
two hours focus, reading Dream of the Red Chamber | start | 7200 | reading Dream of the Red Chamber
focus 90 min on my 红楼梦 chapter | start | 5400 | 红楼梦 chapter
for the next 50 minutes i'm focusing on the 古文 reading | start | 3000 | 古文 reading
deep work block, 4 hours, thesis lit review | start | 14400 | thesis lit review
Start focus: 30m. Activity: prepping mise en place | start | 1800 | prepping mise en place
before dinner service i need 35 minutes to focus on the menu costing | start | 2100 | menu costing
start a 5 min focus timer for the walk-in stock count | start | 300 | walk-in stock count
Focus fir 25 minits | start | 1500 | -
start a focus sesh for twenty mins lol | start | 1200 | -
ok focusing for 10 min on chem hw | start | 600 | chem hw
focus 30m route plan | start | 1800 | route plan
need 30 min focus for tomorrow's route sheet | start | 1800 | tomorrow's route sheet
"Start one fixed-length focus now" — 25 minutes | start | 1500 | -
"Start one fixed-length focus now", 40 min, firmware review | start | 2400 | firmware review
set the focus timer to 3 hours, BOM cleanup for the new board | start | 10800 | BOM cleanup for the new board
focus 1h, soldering practice | start | 3600 | soldering practice
focus 25 min on the 报价单 pls | start | 1500 | 报价单
i'm gonna focus 55 min on the grant proposal now | start | 3300 | grant proposal
pomodoro 25 mins, flower orders | start | 1500 | flower orders
the tulips can wait, focus 40 minutes on the greenhouse accounts | start | 2400 | greenhouse accounts
give me a quarter of an hour of focus for the bouquet sketches | start | 900 | bouquet sketches
start focusing now for 2 hrs | start | 7200 | -
focus for half an hour pls | start | 1800 | -
focus 8 hours on the overnight shift log | start | 28800 | overnight shift log
24h focus, hackathon | start | 86400 | hackathon
start 25-minute focus 🍅 | start | 1500 | -
can you run a focus for 1 hr 20 please, writing the conference abstract | start | 4800 | writing the conference abstract
quiz my granddaughter on subtraction for 10 minutes | quiz | 600 | subtraction
take-away practice for Lily, 5 minutes please | quiz | 300 | subtraction
Nana here — subtraction quiz for my granddaughter, 15 minutes | quiz | 900 | subtraction
start a 15 min multiplication quiz | quiz | 900 | multiplication
times tables quiz, 10 mins pls thx | quiz | 600 | multiplication
arithmetic quiz for 20 minutes | quiz | 1200 | mixed
quiz me on addition, three minutes | quiz | 180 | addition
mental math drill 7 min | quiz | 420 | mixed
Kindly initiate a mixed arithmetic quiz with a duration of 30 minutes. | quiz | 1800 | mixed
quick maths quiz, 2 mins | quiz | 120 | mixed
subtraction quiz 90 sec | quiz | 90 | subtraction
can u do a adding quiz for 5 min | quiz | 300 | addition
multiplacation quiz 10 minuets | quiz | 600 | multiplication
one hour of times tables quiz, let's go | quiz | 3600 | multiplication
half an hour quiz, plus and minus mixed | quiz | 1800 | mixed
start the practice quiz: multiplication, 12 minutes | quiz | 720 | multiplication
drill me on minus sums for 8 minutes | quiz | 480 | subtraction
4 min addition drill pls | quiz | 240 | addition
between orders, give me a 6 minute arithmetic quiz | quiz | 360 | mixed
"A timed practice quiz" — 20 min, multiplication | quiz | 1200 | multiplication
quiz, 25 mins, all kinds | quiz | 1500 | mixed
math quiz for forty-five minutes pls | quiz | 2700 | mixed
5m addition quiz b4 next drop | quiz | 300 | addition
1 min multiplication quiz just to warm up | quiz | 60 | multiplication
stop the timer | stop
stop the quiz but leave the focus running | stop
end focus pls thx | stop
cancel the quiz, Lily's had enough | stop
kill the focus timer, a bus just came in | stop
ok stop | stop
end the quiz, keep my timer going | stop
Please terminate the current focus session. | stop
stop both | stop
im done, stop focus | stop
quit quiz | stop
stopp the timr | stop
how long left? | status
how much time is left on the focus | status
is the quiz still going? | status
what's running right now | status
time left pls | status
is my timer on | status
How many minutes remain in the current focus session? | status
how long till the quiz ends | status
status? | status
am i still focusing or did it end | status
how mich time left lol | status
which one is running, the quiz or the timer? | status
can the quiz do division? | help
quiz me on division for 10 minutes | help
spelling quiz for 15 min | help
remind me at 5 to call the seed supplier | help
set an alarm for 6am | help
pause the timer, a delivery just arrived | help
add a note: order more peonies | help
I did a 25 min focus this morning, felt great | help
my son did a 10 minute times tables quiz yesterday | help
if I started a 30 hour focus what would happen? | help
don't start a timer yet | help
tomorrow I'll do 2 hours of focus on the thesis | help
in an hour, start a 25 minute focus | help
hi! | help
good morning ☀️ | help
got 18 out of 20 on the quiz!! | help
Lily scored 9/10 on subtraction 🎉 | help
why did my focus end early? | help
what's a pomodoro anyway | help
lol tell me a joke | help
thx! | help
my colleague is doing a 45 min focus, she's in the zone | help
Could you kindly explain how the focus timer works? | help
no quiz today, not in the mood | help
I would focus for an hour if the printer wasn't jammed | help
what kinds of quiz are there? | help
start a focus session | ask
let's do 30 minutes | ask
quiz me pls | ask
20 min, go | ask
can you start a timer for the bouquet orders? | ask
focus for 30 hours straight, crunch week | range
multiplication quiz for 2 hours | range
90 minute quiz on addition | range
start a 2 day focus | range
"""

HELD_OUT_FRESH30_ZH = """
帮我开个25分钟的专注，写论文 | start | 1500 | 写论文
专注一个半小时，读《红楼梦》 | start | 5400 | 读《红楼梦》
我要专注45分钟改第三章 | start | 2700 | 改第三章
开始专注，半小时 | start | 1800 | -
专注两个钟头，画PCB | start | 7200 | 画PCB
来个focus，40分钟，调试固件 | start | 2400 | 调试固件
帮忙计时专注20分钟，整理花单 | start | 1200 | 整理花单
专注一刻钟 | start | 900 | -
专注三刻钟，备菜 | start | 2700 | 备菜
麻烦开始一个60分钟的专注时段，用于撰写项目周报，谢谢。 | start | 3600 | 撰写项目周报
专注 25 min，背单词 | start | 1500 | 背单词
開始專注三十分鐘，寫報告 | start | 1800 | 寫報告
專注一小時 | start | 3600 | -
给我50分钟专注，核对BOM表 | start | 3000 | 核对BOM表
专注90分钟 写文献综述 | start | 5400 | 写文献综述
帮我定个专注 十分钟 | start | 600 | -
开个番茄钟，25分钟 | start | 1500 | -
专注8小时，赶项目 | start | 28800 | 赶项目
专注24小时，黑客松 | start | 86400 | 黑客松
修车前先专注15分钟看维修手册 | start | 900 | 看维修手册
等下要出车了，先专注20分钟填保养记录 | start | 1200 | 填保养记录
专注1小时20分钟，做医保编码 | start | 4800 | 做医保编码
专注一小时十五分，复习古代文学史 | start | 4500 | 复习古代文学史
现在开始专注四十五分钟 | start | 2700 | -
专注 2h，写代码 | start | 7200 | 写代码
给我开个专注，时长三十五分钟，内容是核对订单 | start | 2100 | 核对订单
专注五分钟🙏 | start | 300 | -
请帮我开启专注模式，时长为两小时，事项：审阅合同 | start | 7200 | 审阅合同
专注12分钟 回邮件 | start | 720 | 回邮件
嗯 专注个半小时吧 看论文 | start | 1800 | 看论文
专注三个小时，写毕业论文 | start | 10800 | 写毕业论文
「开始一次固定时长的专注」，30分钟，剪花枝 | start | 1800 | 剪花枝
专注一个钟，配送路线规划 | start | 3600 | 配送路线规划
focus一下，25分钟，写周报 | start | 1500 | 写周报
開個專注，四十分鐘，備課 | start | 2400 | 備課
专注100分钟 整理实验数据 | start | 6000 | 整理实验数据
专注两个半小时，看《文心雕龙》 | start | 9000 | 看《文心雕龙》
趁花还没到，专注二十五分钟把账对完 | start | 1500 | 把账对完
给孙女出个减法练习，十分钟 | quiz | 600 | subtraction
来个乘法测验，15分钟 | quiz | 900 | multiplication
口算练习5分钟 | quiz | 300 | mixed
加法小测，3分钟 | quiz | 180 | addition
开始一个20分钟的算术测验 | quiz | 1200 | mixed
九九乘法表考我十分钟 | quiz | 600 | multiplication
减法quiz 8分钟 | quiz | 480 | subtraction
来个混合运算的小测验，半小时 | quiz | 1800 | mixed
出几道加减法题，考我6分钟 | quiz | 360 | mixed
给我一个一小时的乘法测验 | quiz | 3600 | multiplication
數學小測驗十分鐘 | quiz | 600 | mixed
減法測驗五分鐘 | quiz | 300 | subtraction
速算 quiz，两分钟 | quiz | 120 | mixed
考考我加法，一刻钟 | quiz | 900 | addition
乘法练习四十分钟，开始 | quiz | 2400 | multiplication
麻烦帮我开启一次算术练习测验，时长25分钟，题型为减法，谢谢 | quiz | 1500 | subtraction
奶奶帮妞妞开个减法测验，十二分钟 | quiz | 720 | subtraction
心算测验 90秒 | quiz | 90 | mixed
来一轮加法题，限时七分钟 | quiz | 420 | addition
考乘法，1分钟 | quiz | 60 | multiplication
数学测验 三十分钟 随便什么题型 | quiz | 1800 | mixed
加法和乘法混着来，测验20分钟 | quiz | 1200 | mixed
「定时练习测验」开一个，乘法，十五分钟 | quiz | 900 | multiplication
停止专注 | stop
把测验停了，专注继续 | stop
结束计时 | stop
不做了，把测验关掉 | stop
专注先停掉，客人来了 | stop
都停了吧 | stop
取消番茄钟 | stop
停掉测验，计时器别动 | stop
請結束目前的專注 | stop
stop一下专注 | stop
结束测验 | stop
算了，专注结束吧 | stop
还剩多久？ | status
专注还有几分钟 | status
测验还在进行吗 | status
现在在跑什么 | status
計時還剩多少 | status
我的番茄钟还在走吗 | status
测验还剩多长时间？ | status
请问当前专注还剩余多少时间？ | status
现在是专注还是测验在进行 | status
状态？ | status
还有多久结束 | status
专注到几点结束 | status
测验能出除法题吗？ | help
出十分钟除法题考我 | help
来个英语单词测验，15分钟 | help
五点提醒我去接孩子 | help
定个明早六点的闹钟 | help
暂停一下计时器，接个电话 | help
帮我记一下：明天进货玫瑰两百支 | help
我昨天专注了三个小时 | help
孙女刚才做了十分钟减法，全对 | help
如果我专注30小时会怎样？ | help
先别开始计时 | help
明天下午我要专注两小时写论文 | help
半小时以后帮我开始专注25分钟 | help
你好 | help
早上好呀🌞 | help
测验考了19分，满分20 | help
番茄工作法是什么 | help
讲个笑话 | help
谢谢！ | help
同事在做一小时的专注，别打扰他 | help
专注计时器怎么用？ | help
今天不想做测验 | help
要是没这么多订单，我就专注一小时了 | help
测验有哪些题型？ | help
开始专注 | ask
来二十分钟吧 | ask
考考我 | ask
番茄钟一个，整理病历编码 | ask
45分钟，走起 | ask
帮我计个时，剪花 | ask
专注三十个小时 | range
乘法测验两个小时 | range
来个90分钟的口算测验 | range
专注两天，闭关写论文 | range
"""
